/**
 * Reprocessing on the real local stack, through the API, the SDK and the CLI in turn, on one video:
 * the clips are rendered again with the new settings from the stored source (the status never goes
 * back through downloading or transcribing; the files really change shape), and the charging rule
 * holds (the first reprocess free, then half the frame's minutes, never twice; refused while
 * processing and once the source is gone, with nothing charged).
 */
import { execFile, execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { createClient } from "../../packages/sdk/src/index.ts";
import { api, stackUrl, useServedMedia, waitForStatus } from "./client.ts";
import { cachedTalkVideo } from "../../scripts/sample-video.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const media = useServedMedia("clipforge-e2e-reprocess-", (dir) =>
	cachedTalkVideo({ out: join(dir, "talk.mp4"), seconds: 30 }),
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

const balance = async () => (await api("GET", "/api/workspaces")).body[0].minutesBalance as number;

function dimensions(path: string): string {
	return execFileSync(
		"ffprobe",
		["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0", path],
		{ encoding: "utf8" },
	).trim();
}

async function firstClipDimensions(id: string, name: string): Promise<string> {
	const { body } = await api("GET", `/api/videos/${id}/clips`);
	const path = join(media.dir(), name);
	writeFileSync(path, new Uint8Array(await (await fetch(body.clips[0].downloadUrl)).arrayBuffer()));
	return dimensions(path);
}

describe("reprocessing a finished video", () => {
	it("through the API (free), the SDK and the CLI (half the minutes each), re-rendering from the stored source", async () => {
		const submitted = await api("POST", "/api/videos/hosted", {
			hostedUrl: `${media.url()}/talk.mp4`,
			config: { clipDurationMin: 8, clipDurationMax: 20 },
		});
		const id = submitted.body.video.id as string;
		expect((await waitForStatus(id)).video.status).toBe("completed");
		expect(await firstClipDimensions(id, "first.mp4")).toBe("1080,1920");
		const start = await balance();

		// The API: the first one is free; the video goes back to analyzing and on, never downloading again.
		const byApi = await api("POST", `/api/videos/${id}/reprocess`, {
			config: { aspectRatio: "1:1", enableCaptions: true, captionTemplateId: "sentence" },
		});
		expect(byApi.status, JSON.stringify(byApi.body)).toBe(202);
		expect(byApi.body.reprocess).toMatchObject({ number: 1, minutesCharged: 0, status: "processing" });
		const seen: { status: string; progress: number }[] = [];
		await waitForStatus(id, { onStatus: (s) => seen.push({ status: s.video.status, progress: s.job.progress }) });
		expect(seen.filter((s) => !["analyzing", "generating_clips", "completed"].includes(s.status))).toEqual([]);
		expect(seen[0]!.progress).toBeGreaterThanOrEqual(55);
		for (let i = 1; i < seen.length; i++) expect(seen[i]!.progress).toBeGreaterThanOrEqual(seen[i - 1]!.progress);
		expect(seen.at(-1)).toEqual({ status: "completed", progress: 100 });
		expect(await firstClipDimensions(id, "square.mp4")).toBe("1080,1080");
		expect(await balance()).toBe(start);

		// The SDK: the second costs half the 30 s frame's minute, rounded up.
		const cf = createClient({ baseUrl: stackUrl(), apiKey: inject("clipforgeApiKey") });
		const bySdk = await cf.reprocess(id, { aspectRatio: "16:9" });
		expect(bySdk.reprocess).toMatchObject({ number: 2, minutesCharged: 1 });
		await cf.waitForCompletion(id, { intervalMs: 1000, timeoutMs: 5 * 60_000 });
		expect(await firstClipDimensions(id, "wide.mp4")).toBe("1920,1080");
		expect(await balance()).toBe(start - 1);

		// The CLI: flags change only what they name; --wait shows progress and downloads the new clips.
		const out = join(media.dir(), "cli-clips");
		const byCli = await cli([
			"--json",
			"reprocess",
			id,
			"--aspect",
			"9:16",
			"--no-captions",
			"--wait",
			"--interval",
			"1",
			"--out",
			out,
		]);
		expect(byCli.code, byCli.stderr + byCli.stdout).toBe(0);
		const result = JSON.parse(byCli.stdout);
		expect(result.video.status).toBe("completed");
		expect(result.files.length).toBe(result.clips.length);
		expect(dimensions(result.files[0])).toBe("1080,1920");
		expect(await balance()).toBe(start - 2);
		const detail = (await api("GET", `/api/videos/${id}`)).body;
		expect(detail.config).toMatchObject({
			aspectRatio: "9:16",
			enableCaptions: false,
			captionTemplateId: "sentence",
			clipDurationMin: 8,
			clipDurationMax: 20,
		});
		const history = await cf.reprocesses(id);
		expect(history.reprocesses.map((r) => [r.number, r.status, r.minutesCharged])).toEqual([
			[1, "completed", 0],
			[2, "completed", 1],
			[3, "completed", 1],
		]);

		// While one runs, another is refused (409 video_processing, exit 2), and nothing more is charged.
		const started = await cli(["reprocess", id, "--genre", "Podcast"]);
		expect(started.code, started.stderr).toBe(0);
		expect(started.stdout).toMatch(
			new RegExp(
				`^Reprocessing ${id} \\(reprocess 4, 1 minute\\(s\\) charged\\): analyzing\\. Follow it with: clipforge status ${id}`,
			),
		);
		const refused = await cli(["--json", "reprocess", id, "--genre", "Gaming"]);
		expect(refused.code).toBe(2);
		expect(JSON.parse(refused.stdout).error).toMatchObject({ code: "video_processing", status: 409 });
		expect((await waitForStatus(id)).video.status).toBe("completed");
		expect(await balance()).toBe(start - 3);
	});

	it("refuses a video whose files were deleted when it failed (410 source_deleted, CLI exit 5), charging nothing", async () => {
		const gone = join(media.dir(), "short-lived.mp4");
		cachedTalkVideo({ out: gone, seconds: 8, width: 320, height: 180 });
		const submitted = await api("POST", "/api/videos/hosted", {
			hostedUrl: `${media.url()}/short-lived.mp4`,
			config: {},
		});
		rmSync(gone);
		const id = submitted.body.video.id as string;
		expect((await waitForStatus(id, { timeoutMs: 2 * 60_000 })).video.status).toBe("failed");
		const before = await balance();
		const refused = await api("POST", `/api/videos/${id}/reprocess`, {});
		expect(refused.status).toBe(410);
		expect(refused.body.error.code).toBe("source_deleted");
		expect((await cli(["reprocess", id])).code).toBe(5);
		expect(await balance()).toBe(before);
	});
});
