/**
 * Awkward sources on the real stack: each ends in a defined state with a clear message, refunded
 * when nothing was delivered, with clips where clips are possible.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { api, useServedMedia, waitForStatus } from "./client.ts";
import { cachedTalkVideo } from "../../scripts/sample-video.ts";

const ffmpeg = (...args: string[]) => execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", ...args]);

const media = useServedMedia("clipforge-sources-", (dir) => {
	writeFileSync(join(dir, "notes.txt"), "this is not a video\n");
	writeFileSync(
		join(dir, "random.mp4"),
		new Uint8Array(200_000).map((_, i) => (i * 7919) % 251),
	);
	cachedTalkVideo({ out: join(dir, "full.mp4"), seconds: 30, width: 320, height: 180 });
	const full = readFileSync(join(dir, "full.mp4"));
	writeFileSync(join(dir, "truncated.mp4"), full.subarray(0, Math.floor(full.length * 0.4)));
	ffmpeg(
		"-f",
		"lavfi",
		"-i",
		"testsrc2=size=320x180:rate=25",
		"-t",
		"20",
		"-c:v",
		"libx264",
		"-preset",
		"ultrafast",
		join(dir, "mute.mp4"),
	);
	ffmpeg(
		"-f",
		"lavfi",
		"-i",
		"testsrc2=size=320x180:rate=25",
		"-f",
		"lavfi",
		"-i",
		"anullsrc=r=48000:cl=mono",
		"-t",
		"20",
		"-c:v",
		"libx264",
		"-preset",
		"ultrafast",
		"-c:a",
		"aac",
		join(dir, "silent.mp4"),
	);
	cachedTalkVideo({ out: join(dir, "short.mp4"), seconds: 8, width: 320, height: 180 });
	cachedTalkVideo({ out: join(dir, "portrait.mp4"), seconds: 25, width: 720, height: 1280, preset: "ultrafast" });
	cachedTalkVideo({ out: join(dir, "uhd.mp4"), seconds: 20, width: 3840, height: 2160, preset: "ultrafast" });
});

const balance = async () => (await api("GET", "/api/workspaces")).body[0].minutesBalance as number;

async function processToEnd(name: string, config: object = {}) {
	const submitted = await api("POST", "/api/videos/hosted", { hostedUrl: `${media.url()}/${name}`, config });
	expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
	const id = submitted.body.video.id;
	const body = await waitForStatus(id, { timeoutMs: 4 * 60_000 });
	return { id, status: body.video.status as string, errorMessage: body.video.errorMessage as string | null };
}

describe("sources refused at submission (nothing charged)", () => {
	for (const [name, fragment] of [
		["notes.txt", /not a playable video/],
		["random.mp4", /not a playable video/],
		["mute.mp4", /no audio track/],
		["missing.mp4", /^The source could not be fetched\.$/],
	] as const) {
		it(`${name} → 422 unsupported_source`, async () => {
			const before = await balance();
			const result = await api("POST", "/api/videos/hosted", { hostedUrl: `${media.url()}/${name}`, config: {} });
			expect(result.status).toBe(422);
			expect(result.body.error.code).toBe("unsupported_source");
			expect(result.body.error.message).toMatch(fragment);
			expect(await balance()).toBe(before);
		});
	}
});

describe("a refused connection and an HTTP error read the same (no port-scan oracle)", () => {
	it("a closed port answers like the 404 above, nothing charged", async () => {
		const closed = createServer();
		await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", () => resolve()));
		const { port } = closed.address() as AddressInfo;
		await new Promise((resolve) => closed.close(resolve));
		const before = await balance();
		const refused = await api("POST", "/api/videos/hosted", {
			hostedUrl: `http://127.0.0.1:${port}/v.mp4`,
			config: {},
		});
		const missing = await api("POST", "/api/videos/hosted", {
			hostedUrl: `${media.url()}/missing.mp4`,
			config: {},
		});
		expect([refused.status, refused.body.error.code, refused.body.error.message]).toEqual([
			missing.status,
			missing.body.error.code,
			missing.body.error.message,
		]);
		expect(await balance()).toBe(before);
	});
});

describe("sources processed to a defined end", () => {
	it("a silent video ends failed with 'No speech was found', refunded", async () => {
		const before = await balance();
		const end = await processToEnd("silent.mp4");
		expect(end.status).toBe("failed");
		expect(end.errorMessage).toMatch(/^No speech was found/);
		expect(await balance()).toBe(before);
	});

	it("a truncated file ends completed with playable clips, or failed with a message and refunded", async () => {
		const before = await balance();
		const end = await processToEnd("truncated.mp4", { clipDurationMin: 5, clipDurationMax: 15 });
		if (end.status === "failed") {
			expect(end.errorMessage!.length).toBeGreaterThan(10);
			expect(await balance()).toBe(before);
		} else {
			const clips = (await api("GET", `/api/videos/${end.id}/clips`)).body;
			for (const clip of clips.clips) expect((await fetch(clip.downloadUrl)).status).toBe(200);
		}
	});

	it("a video shorter than the minimum clip length gives one clip of its speech", async () => {
		const end = await processToEnd("short.mp4");
		expect(end.status).toBe("completed");
		const { body } = await api("GET", `/api/videos/${end.id}/clips`);
		expect(body.count).toBe(1);
		expect(body.clips[0].duration).toBeGreaterThan(3);
		expect(body.clips[0].duration).toBeLessThanOrEqual(8);
	});

	for (const [name, aspectRatio, size] of [
		["portrait.mp4", "16:9", [1920, 1080]],
		["uhd.mp4", "9:16", [1080, 1920]],
	] as const) {
		it(`${name} → ${aspectRatio} clips at ${size.join("x")}`, async () => {
			const end = await processToEnd(name, { clipDurationMin: 5, clipDurationMax: 15, aspectRatio });
			expect(end.status, end.errorMessage ?? "").toBe("completed");
			const { body } = await api("GET", `/api/videos/${end.id}/clips`);
			expect(body.count).toBeGreaterThan(0);
			const file = join(media.dir(), `${name}.clip.mp4`);
			writeFileSync(file, new Uint8Array(await (await fetch(body.clips[0].downloadUrl)).arrayBuffer()));
			const probe = JSON.parse(
				execFileSync("ffprobe", [
					"-v",
					"error",
					"-select_streams",
					"v:0",
					"-show_entries",
					"stream=width,height",
					"-of",
					"json",
					file,
				]).toString(),
			);
			expect([probe.streams[0].width, probe.streams[0].height]).toEqual(size);
		});
	}
});
