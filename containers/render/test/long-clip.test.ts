/**
 * A clip longer than 30 s through the tier's HTTP job, as users' clips are (the seed's range is
 * 15-90 s): 37.86 s with karaoke captions and smart crop. Before the timeouts were whole
 * milliseconds, this exact request failed: "The value of "timeout" is out of range … Received
 * 757200.0000000002".
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { JobEvent, presetLook, renderJobs, type RenderClipRequest, type Word } from "@clipforge/contract";
import { DEFAULT_X264_PRESET } from "../src/ffmpeg/encode-preset.ts";
import { layoutFor } from "../src/framing/layout.ts";
import { createRenderServer } from "../src/server.ts";
import { serveDirectory, type FileServer } from "../../../scripts/serve-files.ts";
import { frameAt, isWhite, pixelsIn } from "./frames.ts";
import { signedPost } from "./signed-post.ts";

// Before the tier's modules load: they read WORK_DIR once (set later, the clip's files sat in the
// shared default folder, where another test file's tier sweeps at its start).
await vi.hoisted(async () => {
	const { mkdtempSync } = await import("node:fs");
	const { tmpdir } = await import("node:os");
	process.env.WORK_DIR = mkdtempSync(`${tmpdir()}/long-clip-work-`);
});

const FACE = join(import.meta.dirname, "fixtures", "face.png");
const SOURCE_SECONDS = 45;
const START = 0.98;
const END = 38.84;

let media: string;
let sinkDir: string;
let files: FileServer;
let sink: FileServer;
let tier: string;
let closeTier: () => void;

beforeAll(async () => {
	media = mkdtempSync(join(tmpdir(), "long-clip-media-"));
	sinkDir = mkdtempSync(join(tmpdir(), "long-clip-sink-"));
	// The production encode (veryfast), which the rest of this suite trades for ultrafast (vitest.config.ts).
	process.env.X264_PRESET = DEFAULT_X264_PRESET;
	// A face drifting slowly across a 16:9 frame, with a tone: smart crop has someone to follow all along.
	execFileSync("ffmpeg", [
		"-hide_banner",
		"-loglevel",
		"error",
		"-y",
		"-f",
		"lavfi",
		"-i",
		`color=c=0x2a3540:s=960x540:r=25:d=${SOURCE_SECONDS}`,
		"-i",
		FACE,
		"-f",
		"lavfi",
		"-i",
		`sine=frequency=220:sample_rate=48000:duration=${SOURCE_SECONDS}`,
		"-filter_complex",
		`[1:v]scale=160:160[f];[0:v][f]overlay=x='60+(960-160-120)*t/${SOURCE_SECONDS}':y=150[v]`,
		"-map",
		"[v]",
		"-map",
		"2:a",
		"-c:v",
		"libx264",
		"-preset",
		"ultrafast",
		"-pix_fmt",
		"yuv420p",
		"-c:a",
		"aac",
		"-shortest",
		join(media, "talk.mp4"),
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
	process.env.X264_PRESET = "ultrafast";
});

/** A word every 0.6 s across the whole clip (clip-relative times), so captions show until its end. */
const words: Word[] = Array.from({ length: Math.floor((END - START - 1) / 0.6) }, (_, i) => ({
	word: `word${i}`,
	start: 0.5 + i * 0.6,
	end: 0.5 + i * 0.6 + 0.45,
}));

it("renders a 37.86 s clip with captions and smart crop, playing for its stated length", async () => {
	const body: RenderClipRequest = {
		videoId: "longclip",
		clipId: "clip",
		sourceUrl: `${files.url}/talk.mp4`,
		start: START,
		end: END,
		aspectRatio: "9:16",
		videoPutUrl: `${sink.url}/longclip/clip.mp4`,
		thumbnailPutUrl: `${sink.url}/longclip/clip.jpg`,
		captions: { look: presetLook("karaoke"), words },
		hookTitle: null,
		watermark: null,
		splitScreen: null,
		smartCrop: true,
		jumpCuts: null,
		layout: "single",
	};
	const response = await signedPost(tier, renderJobs.renderClip.path, body);
	const events = (await response.text())
		.trim()
		.split("\n")
		.map((line) => JobEvent.parse(JSON.parse(line)));
	const last = events.at(-1)!;
	expect(last, JSON.stringify(last)).toMatchObject({ type: "result" });
	const result = (
		last as {
			result: { duration: number; faceFrames: number; sampledFrames: number; width: number; height: number };
		}
	).result;
	expect(result).toMatchObject({ width: 1080, height: 1920 });
	expect(result.duration).toBeCloseTo(END - START, 1);
	expect(result.sampledFrames).toBeGreaterThan(100);
	expect(result.faceFrames / result.sampledFrames).toBeGreaterThan(0.9);

	const video = join(sinkDir, "longclip", "clip.mp4");
	const probed = Number(
		execFileSync("ffprobe", [
			"-v",
			"error",
			"-show_entries",
			"format=duration",
			"-of",
			"csv=p=0",
			video,
		]).toString(),
	);
	expect(Math.abs(probed - (END - START))).toBeLessThan(0.1);
	// Captions are still drawn near the end of the clip, not only at its start.
	const band = layoutFor("9:16", null).captionY;
	expect(
		pixelsIn(frameAt(video, 35.3), { x0: 0, y0: band - 130, x1: 1080, y1: band + 130 }, isWhite).count,
	).toBeGreaterThan(300);
}, 360_000); // a 1080x1920 encode of 38 s with a face scan: about a minute here, several on a loaded machine
