/**
 * Only what was paid for is kept (issue 45, H1): a source is stored cut to the video's time frame,
 * and every later job, told where the stored file begins (`sourceStart`), still reads the source's
 * own times. The source is 30 s with one loud beep at 12.0-12.5 s and a keyframe every 5 s (so the
 * frame's start, 8 s, falls between keyframes); where the beep is heard says which time was read.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { JobEvent, renderJobs } from "@clipforge/contract";
import { createRenderServer } from "../src/server.ts";
import { serveDirectory, type FileServer } from "../../../scripts/serve-files.ts";
import { signedPost } from "./signed-post.ts";

// Before the tier's modules load: they read WORK_DIR once. A work folder of its own, so no other
// file's tier (a sweep after an aborted job) removes this file's download while it is checked.
await vi.hoisted(async () => {
	const { mkdtempSync } = await import("node:fs");
	const { tmpdir } = await import("node:os");
	process.env.WORK_DIR = mkdtempSync(`${tmpdir()}/frame-test-work-`);
});

const BEEP_AT = 12;
const FRAME = { start: 8, end: 20 };
let media: string;
let sinkDir: string;
let files: FileServer;
let sink: FileServer;
let tier: string;
let closeTier: () => void;

beforeAll(async () => {
	media = mkdtempSync(join(tmpdir(), "frame-test-media-"));
	sinkDir = mkdtempSync(join(tmpdir(), "frame-test-sink-"));
	const beep = `sine=frequency=1000:duration=30,volume='if(between(t,${BEEP_AT},${BEEP_AT + 0.5}),1,0)':eval=frame`;
	execFileSync("ffmpeg", [
		...["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=320x180:rate=25:duration=30"],
		...["-f", "lavfi", "-i", beep, "-c:v", "libx264", "-preset", "ultrafast", "-g", "125", "-keyint_min", "125"],
		...["-sc_threshold", "0", "-c:a", "aac", "-shortest", join(media, "beep.mp4")],
	]);
	files = await serveDirectory(media);
	sink = await serveDirectory(sinkDir, { acceptPut: true });
	const server = createRenderServer().listen(0, "127.0.0.1");
	await new Promise((r) => server.once("listening", r));
	tier = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	closeTier = () => server.close();
});

afterAll(async () => {
	closeTier?.();
	await files?.close();
	await sink?.close();
	for (const dir of [media, sinkDir, process.env.WORK_DIR!]) rmSync(dir, { recursive: true, force: true });
});

async function job(path: string, body: unknown) {
	const response = await signedPost(tier, path, body);
	expect(response.status).toBe(200);
	const events = (await response.text())
		.trim()
		.split("\n")
		.map((line) => JobEvent.parse(JSON.parse(line)));
	const last = events.at(-1)!;
	if (last.type !== "result") throw new Error(`job ${path} ended with ${JSON.stringify(last)}`);
	return last.result as any;
}

const durationOf = (path: string) =>
	Number(execFileSync("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path]));

/** Seconds into `path` where its sound first gets loud (silencedetect's first silence_end, on stderr). */
function beepIn(path: string): number {
	const { stderr } = spawnSync(
		"ffmpeg",
		["-hide_banner", "-nostats", "-i", path, "-af", "silencedetect=n=-30dB:d=0.2", "-f", "null", "-"],
		{ encoding: "utf8" },
	);
	const match = /silence_end: ([\d.]+)/.exec(stderr);
	return match ? Number(match[1]) : Number.NaN;
}

describe("a source stored cut to its time frame", () => {
	const videoId = `f${Date.now()}`;
	const stored = () => join(sinkDir, videoId, "source.mp4");

	it("keeps only the frame: the stored file lasts 12 s of the 30 s source, and its time 0 is 8 s of the source", async () => {
		await job(renderJobs.uploadSource.path, {
			videoId,
			url: `${files.url}/beep.mp4`,
			expectedDuration: 30,
			frame: FRAME,
			putUrl: `${sink.url}/${videoId}/source.mp4`,
		});
		expect(durationOf(stored())).toBeGreaterThan(11.9);
		expect(durationOf(stored())).toBeLessThan(12.3);
		expect(beepIn(stored())).toBeCloseTo(BEEP_AT - FRAME.start, 1);
	});

	it("later jobs read the source's own times: loudness, audio chunks and a clip find the beep where the source has it", async () => {
		// Another instance: no local copy, the stored (cut) file is read through its URL.
		const other = `${videoId}b`;
		const sourceUrl = `${sink.url}/${videoId}/source.mp4`;
		await job(renderJobs.signals.path, {
			videoId: other,
			sourceUrl,
			sourceStart: FRAME.start,
			duration: 30,
			...FRAME,
			putUrl: `${sink.url}/${other}/signals.json`,
		});
		const { loudness } = JSON.parse(readFileSync(join(sinkDir, other, "signals.json"), "utf8")) as {
			loudness: number[];
		};
		const loudest = loudness.indexOf(Math.max(...loudness));
		expect(loudest * 0.5).toBeCloseTo(BEEP_AT, 0);
		expect(loudness.slice(0, FRAME.start * 2).every((v) => v === -120)).toBe(true);

		await job(renderJobs.extractAudio.path, {
			videoId: other,
			sourceUrl,
			sourceStart: FRAME.start,
			chunks: [{ index: 0, start: 11, duration: 3, putUrl: `${sink.url}/${other}/chunk-0.mp3` }],
		});
		expect(beepIn(join(sinkDir, other, "chunk-0.mp3"))).toBeCloseTo(BEEP_AT - 11, 0);

		await job(renderJobs.renderClip.path, {
			videoId: other,
			clipId: "beep",
			sourceUrl,
			sourceStart: FRAME.start,
			start: 10,
			end: 14,
			aspectRatio: "16:9",
			videoPutUrl: `${sink.url}/${other}/beep.mp4`,
			thumbnailPutUrl: `${sink.url}/${other}/beep.jpg`,
		});
		const clip = join(sinkDir, other, "beep.mp4");
		expect(durationOf(clip)).toBeCloseTo(4, 0);
		expect(beepIn(clip)).toBeCloseTo(BEEP_AT - 10, 0);
	});

	it("an upload has its frame copied out by ffmpeg (no yt-dlp), stored as what it is", async () => {
		const uploadId = `u${Date.now()}`;
		await job(renderJobs.uploadSource.path, {
			videoId: uploadId,
			url: `${files.url}/beep.mp4`,
			upload: true,
			frame: FRAME,
			putUrl: `${sink.url}/${uploadId}/frame.mp4`,
		});
		const copy = join(sinkDir, uploadId, "frame.mp4");
		expect(durationOf(copy)).toBeLessThan(12.3);
		expect(beepIn(copy)).toBeCloseTo(BEEP_AT - FRAME.start, 1);
	});
});
