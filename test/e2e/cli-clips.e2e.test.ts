/**
 * The `clipforge` CLI's clip commands against the real local stack: `clips` with filters and an
 * order, `clip`, `edit` (a trim rendered again by the real tier, waited for; a word corrected;
 * refusals with their exit codes) and `export` in every format (the ZIP checked with `unzip -t`, a
 * timeline parsed, captions read back).
 */
import { execFile, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { XMLValidator } from "fast-xml-parser";
import { describe, expect, inject, it } from "vitest";
import { api, stackUrl, useServedMedia, waitForStatus } from "./client.ts";
import { cachedTalkVideo } from "../../scripts/sample-video.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const media = useServedMedia("clipforge-e2e-cli-clips-", (dir) =>
	cachedTalkVideo({ out: join(dir, "talk.mp4"), seconds: 40 }),
);

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
	return new Promise((resolve) => {
		execFile(
			process.execPath,
			[join(ROOT, "packages/sdk/src/cli.ts"), ...args],
			{
				env: { ...process.env, CLIPFORGE_URL: stackUrl(), CLIPFORGE_API_KEY: inject("clipforgeApiKey") },
				encoding: "utf8",
				timeout: 5 * 60_000,
			},
			(error, stdout, stderr) =>
				resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
		);
	});
}

describe("clipforge clip commands", () => {
	it("lists with filters, shows, edits and exports clips", async () => {
		const submitted = await api("POST", "/api/videos/hosted", {
			hostedUrl: `${media.url()}/talk.mp4`,
			config: { clipDurationMin: 8, clipDurationMax: 20, enableCaptions: true },
		});
		const videoId = submitted.body.video.id as string;
		expect((await waitForStatus(videoId)).video.status).toBe("completed");

		const listed = await cli([
			"--json",
			"clips",
			videoId,
			"--sort-by",
			"startTime",
			"--sort-order",
			"asc",
			"--min-score",
			"0",
		]);
		expect(listed.code, listed.stderr).toBe(0);
		const clips = JSON.parse(listed.stdout).clips as { id: string; startTime: number; endTime: number }[];
		expect(clips.length).toBeGreaterThan(0);
		expect(clips.map((c) => c.startTime)).toEqual([...clips.map((c) => c.startTime)].sort((a, b) => a - b));
		const clip = clips[0]!;

		const shown = await cli(["clip", clip.id, "--words"]);
		expect(shown.code, shown.stderr).toBe(0);
		expect(shown.stdout).toContain(clip.id);
		expect(shown.stdout).toMatch(/^ {3}0 +\d+\.\d\d +\S+$/m);

		// A trim 2 s shorter, rendered again, waited for.
		const trimmed = await cli([
			"--json",
			"edit",
			clip.id,
			"--end",
			(clip.endTime - 2).toFixed(2),
			"--title",
			"Trimmed by the CLI",
			"--wait",
		]);
		expect(trimmed.code, trimmed.stderr).toBe(0);
		const after = JSON.parse(trimmed.stdout);
		expect(after).toMatchObject({
			id: clip.id,
			status: "completed",
			edits: 1,
			editError: null,
			title: "Trimmed by the CLI",
		});
		expect(after.endTime).toBeLessThan(clip.endTime - 1);
		// Favorites and a corrected word.
		expect((await cli(["edit", clip.id, "--favorite", "--word", "0=Clipforge", "--wait"])).code).toBe(0);
		const favorites = JSON.parse((await cli(["--json", "clips", videoId, "--favorites"])).stdout).clips as {
			id: string;
		}[];
		expect(favorites.map((c) => c.id)).toEqual([clip.id]);
		// Refusals: bad times (2), nothing to change (2).
		const bad = await cli(["edit", clip.id, "--start", "0", "--end", "1"]);
		expect(bad.code).toBe(2);
		expect(bad.stderr).toMatch(/5 to 600 s/);
		expect((await cli(["edit", clip.id])).code).toBe(2);

		// Exports.
		const dir = media.dir();
		const zip = await cli(["export", videoId, "--format", "zip", "--out", join(dir, "clips.zip")]);
		expect(zip.code, zip.stderr).toBe(0);
		const tested = spawnSync("unzip", ["-t", join(dir, "clips.zip")], { encoding: "utf8" });
		expect(tested.stdout).toMatch(/No errors detected/);
		const fcpxml = await cli([
			"export",
			videoId,
			"--format",
			"fcpxml",
			"--media-url",
			"file:///tmp/talk.mp4",
			"--out",
			join(dir, "clips.fcpxml"),
		]);
		expect(fcpxml.code, fcpxml.stderr).toBe(0);
		const xml = readFileSync(join(dir, "clips.fcpxml"), "utf8");
		expect(XMLValidator.validate(xml)).toBe(true);
		expect(xml).toContain(`src="file:///tmp/talk.mp4"`);
		expect(
			(await cli(["export", videoId, "--format", "premiere", "--favorites", "--out", join(dir, "clips.xml")]))
				.code,
		).toBe(0);
		expect(readFileSync(join(dir, "clips.xml"), "utf8").match(/<clipitem id="clipitem-/g)).toHaveLength(1);
		const srt = await cli(["export", videoId, "--format", "srt", "--out", join(dir, "srt")]);
		expect(srt.code, srt.stderr).toBe(0);
		const files = readdirSync(join(dir, "srt"));
		expect(files).toHaveLength(clips.length);
		const first = readFileSync(join(dir, "srt", files.sort()[0]!), "utf8");
		expect(first).toMatch(/^1\n\d{2}:\d{2}:\d{2},\d{3} --> \d{2}:\d{2}:\d{2},\d{3}\n/);
		expect(
			readFileSync(
				join(
					dir,
					"srt",
					files.find((f) => f.includes("trimmed-by-the-cli"))!,
				),
				"utf8",
			)
				.split("\n")[2]!
				.startsWith("Clipforge"),
		).toBe(true);
	});
});
