/**
 * What a viewer sees in a rendered clip, read back from decoded frames: captions in each style
 * (present while words are spoken, gone in pauses, the karaoke highlight moving across words), the
 * hook title only at the start, the watermark, the split-screen seam, the smart crop following a
 * face along a known path, and a thumbnail that is not black. Media is generated here with ffmpeg
 * (and a public-domain photo as the face, see fixtures/README.md).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JobEvent, presetLook, renderJobs, type RenderClipRequest, type Word } from "@clipforge/contract";
import { detectFaces } from "../src/framing/faces.ts";
import { layoutFor } from "../src/framing/layout.ts";
import { createRenderServer } from "../src/server.ts";
import { signedPost } from "./signed-post.ts";
import { serveDirectory, type FileServer } from "../../../scripts/serve-files.ts";
import {
	frameAt,
	isGreen,
	isHighlight,
	isRed,
	isWhite,
	meanLuma,
	pixel,
	pixelsIn,
	type Frame,
	type Region,
} from "./frames.ts";

const FACE = join(import.meta.dirname, "fixtures", "face.png");
const SECONDS = 6;
/** The face slides left to right across a 1280x720 frame: its centre at time t, as a fraction of the width. */
const FACE_SIZE = 220;
const faceCentreAt = (t: number) => (80 + ((1280 - FACE_SIZE - 160) * t) / SECONDS + FACE_SIZE * 0.55) / 1280;

/** Two spoken phrases with a 2 s pause between them (clip-relative times). */
const WORDS: Word[] = [
	{ word: "Hello", start: 0.5, end: 0.9 },
	{ word: "brave", start: 1.0, end: 1.4 },
	{ word: "new", start: 1.5, end: 1.8 },
	{ word: "world.", start: 1.9, end: 2.4 },
	{ word: "Second", start: 4.4, end: 4.9 },
	{ word: "line", start: 5.0, end: 5.5 },
];

let media: string;
let sinkDir: string;
let files: FileServer;
let sink: FileServer;
let tier: string;
let closeTier: () => void;

const ffmpeg = (...args: string[]) => execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", ...args]);

beforeAll(async () => {
	media = mkdtempSync(join(tmpdir(), "render-look-media-"));
	sinkDir = mkdtempSync(join(tmpdir(), "render-look-sink-"));
	process.env.WORK_DIR = mkdtempSync(join(tmpdir(), "render-look-work-"));
	const silence = ["-f", "lavfi", "-i", `anullsrc=r=48000:cl=mono:d=${SECONDS}`];
	const encode = ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest"];
	// A plain dark-slate picture: caption, title and mark pixels stand out from it.
	ffmpeg(
		"-f",
		"lavfi",
		"-i",
		`color=c=0x202830:s=1280x720:r=25:d=${SECONDS}`,
		...silence,
		...encode,
		join(media, "plain.mp4"),
	);
	ffmpeg(
		"-f",
		"lavfi",
		"-i",
		`color=c=0x2a3540:s=1280x720:r=25:d=${SECONDS}`,
		"-i",
		FACE,
		...silence,
		"-filter_complex",
		`[1:v]scale=${FACE_SIZE}:${FACE_SIZE}[f];[0:v][f]overlay=x='80+(1280-${FACE_SIZE}-160)*t/${SECONDS}':y=200[v]`,
		"-map",
		"[v]",
		"-map",
		"2:a",
		...encode,
		join(media, "face.mp4"),
	);
	ffmpeg(
		"-f",
		"lavfi",
		"-i",
		"color=c=0x10c020:s=540x960:r=30:d=2",
		"-c:v",
		"libx264",
		"-preset",
		"ultrafast",
		"-pix_fmt",
		"yuv420p",
		join(media, "green.mp4"),
	);
	ffmpeg(
		"-f",
		"lavfi",
		"-i",
		"color=c=0xe01010:s=200x100",
		"-frames:v",
		"1",
		"-update",
		"1",
		join(media, "mark.png"),
	);
	// Two seconds of black, then a bright pattern: the thumbnail must not be the black.
	ffmpeg(
		"-f",
		"lavfi",
		"-i",
		"color=c=black:s=1280x720:r=25:d=2",
		"-f",
		"lavfi",
		"-i",
		"testsrc2=s=1280x720:r=25:d=4",
		...silence,
		"-filter_complex",
		"[0:v][1:v]concat=n=2:v=1:a=0[v]",
		"-map",
		"[v]",
		"-map",
		"2:a",
		...encode,
		join(media, "black-start.mp4"),
	);
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

let counter = 0;
/** Renders a clip through the tier's HTTP job and returns the local paths of the outputs. */
async function render(options: Partial<RenderClipRequest> & { source: string }) {
	const videoId = `look${Date.now()}${counter++}`;
	const { source, ...rest } = options;
	const body: RenderClipRequest = {
		videoId,
		clipId: "clip",
		sourceUrl: `${files.url}/${source}`,
		start: 0,
		end: SECONDS,
		aspectRatio: "9:16",
		videoPutUrl: `${sink.url}/${videoId}/clip.mp4`,
		thumbnailPutUrl: `${sink.url}/${videoId}/clip.jpg`,
		...rest,
	};
	const response = await signedPost(tier, renderJobs.renderClip.path, body);
	const events = (await response.text())
		.trim()
		.split("\n")
		.map((line) => JobEvent.parse(JSON.parse(line)));
	const last = events.at(-1)!;
	if (last.type !== "result") throw new Error(`render failed: ${JSON.stringify(last)}`);
	return {
		video: join(sinkDir, videoId, "clip.mp4"),
		thumbnail: join(sinkDir, videoId, "clip.jpg"),
		result: last.result as Record<"width" | "height" | "faceFrames" | "sampledFrames" | "bytes", number>,
	};
}

const layout = layoutFor("9:16", null);
/** The caption block's band on a 1080x1920 frame, the hook's band, and the watermark's corner. */
const CAPTION_BAND: Region = { x0: 0, y0: layout.captionY - 130, x1: 1080, y1: layout.captionY + 130 };
const HOOK_BAND: Region = { x0: 0, y0: layout.hookY - 40, x1: 1080, y1: layout.hookY + 300 };
const MARK_CORNER: Region = { x0: 640, y0: 1780, x1: 1080, y1: 1920 };

describe("captions", () => {
	let karaoke: string;
	beforeAll(async () => {
		({ video: karaoke } = await render({
			source: "plain.mp4",
			captions: { look: presetLook("karaoke"), words: WORDS },
			watermark: null,
		}));
	});

	it("karaoke: words are on screen while spoken and gone in the pause", () => {
		for (const t of [0.7, 1.2, 2.2, 4.6, 5.2])
			expect(pixelsIn(frameAt(karaoke, t), CAPTION_BAND, isWhite).count, `t=${t}`).toBeGreaterThan(400);
		for (const t of [0.2, 3.0, 3.6, 5.8])
			expect(pixelsIn(frameAt(karaoke, t), CAPTION_BAND, isWhite).count, `t=${t}`).toBe(0);
	});

	it("karaoke: the highlight colour moves across the words in reading order as they are spoken", () => {
		const centres = [0.7, 1.2, 1.65, 2.2].map((t) => pixelsIn(frameAt(karaoke, t), CAPTION_BAND, isHighlight));
		for (const c of centres) expect(c.count).toBeGreaterThan(150);
		for (let i = 1; i < centres.length; i++) {
			const [before, after] = [centres[i - 1]!, centres[i]!];
			const nextLine = after.centroidY > before.centroidY + 30;
			const sameLineRightwards =
				Math.abs(after.centroidY - before.centroidY) < 30 && after.centroidX > before.centroidX + 40;
			expect(nextLine || sameLineRightwards, `word ${i}: ${JSON.stringify({ before, after })}`).toBe(true);
		}
		// Only the spoken word is highlighted: its span is a fraction of the line's.
		const line = pixelsIn(
			frameAt(karaoke, 1.2),
			CAPTION_BAND,
			(r, g, b) => isWhite(r, g, b) || isHighlight(r, g, b),
		);
		expect(centres[1]!.maxX - centres[1]!.minX).toBeLessThan((line.maxX - line.minX) * 0.45);
	});

	it("word-by-word shows one word at a time; sentence shows the whole sentence without a highlight", async () => {
		const { video: words } = await render({
			source: "plain.mp4",
			captions: { look: presetLook("word-by-word"), words: WORDS },
			watermark: null,
		});
		const { video: sentence } = await render({
			source: "plain.mp4",
			captions: { look: presetLook("sentence"), words: WORDS },
			watermark: null,
		});
		const pageWidth = (f: Frame) => {
			const p = pixelsIn(f, CAPTION_BAND, isWhite);
			return p.maxX - p.minX;
		};
		const oneWord = pageWidth(frameAt(words, 1.2));
		const wholeSentence = pageWidth(frameAt(sentence, 1.2));
		expect(oneWord).toBeGreaterThan(60);
		expect(oneWord).toBeLessThan(wholeSentence * 0.5);
		// The sentence is up from its first word to its last, identical while it is spoken.
		expect(Math.abs(pageWidth(frameAt(sentence, 0.6)) - wholeSentence)).toBeLessThan(12);
		expect(pixelsIn(frameAt(sentence, 1.2), CAPTION_BAND, isHighlight).count).toBe(0);
		for (const video of [words, sentence]) {
			expect(pixelsIn(frameAt(video, 3.2), CAPTION_BAND, isWhite).count).toBe(0);
			expect(pixelsIn(frameAt(video, 4.6), CAPTION_BAND, isWhite).count).toBeGreaterThan(300);
		}
	});
});

describe("hook title and watermark", () => {
	it("shows the hook title only in the first seconds, with unsafe characters drawn, not interpreted", async () => {
		const hookTitle = "Why 90% of \"experts\" fail: {\\b1} C:\\temp 'quotes' — naïve ümlauts";
		const { video } = await render({ source: "plain.mp4", hookTitle, watermark: null });
		expect(pixelsIn(frameAt(video, 1.0), HOOK_BAND, isWhite).count).toBeGreaterThan(2000);
		expect(pixelsIn(frameAt(video, 4.0), HOOK_BAND, isWhite).count).toBe(0);
	});

	it("draws the text mark in the corner when asked, nothing there when not", async () => {
		const { video: marked } = await render({
			source: "plain.mp4",
			end: 2,
			watermark: { kind: "text", text: "clipforge %{pts} \\ 'x'" },
		});
		const { video: bare } = await render({ source: "plain.mp4", end: 2, watermark: null });
		const light = (r: number, g: number, b: number) => r > 150 && g > 150 && b > 150;
		expect(pixelsIn(frameAt(marked, 1), MARK_CORNER, light).count).toBeGreaterThan(300);
		expect(pixelsIn(frameAt(bare, 1), MARK_CORNER, light).count).toBe(0);
	});

	it("overlays an image mark in the corner", async () => {
		const { video } = await render({
			source: "plain.mp4",
			end: 2,
			watermark: { kind: "image", imageUrl: `${files.url}/mark.png` },
		});
		const red = pixelsIn(frameAt(video, 1), { x0: 700, y0: 1700, x1: 1080, y1: 1920 }, isRed);
		expect(red.count).toBeGreaterThan(10_000);
	});
});

describe("split-screen", () => {
	it("puts the main video on top at the ratio and the looped background below", async () => {
		const { video } = await render({
			source: "plain.mp4",
			splitScreen: { backgroundUrl: `${files.url}/green.mp4`, backgroundKey: "test/green", ratio: 40 },
			watermark: null,
		});
		const seam = layoutFor("9:16", 40).main.height;
		expect(seam).toBe(768);
		// The background is 2 s long and loops under a 6 s clip.
		for (const t of [1, 5]) {
			const frame = frameAt(video, t);
			const column = Array.from({ length: 1920 }, (_, y) => isGreen(...pixel(frame, 100, y)));
			const firstGreen = column.indexOf(true);
			expect(Math.abs(firstGreen - seam)).toBeLessThanOrEqual(3);
			expect(column.slice(firstGreen + 4).every(Boolean)).toBe(true);
		}
	});
});

describe("smart crop", () => {
	/** Where the face is in the rendered frame (centre x as a fraction of the width), or null. */
	async function faceInOutput(video: string, t: number): Promise<number | null> {
		const frame = frameAt(video, t, 540);
		const faces = await detectFaces(frame.rgb, frame.width, frame.height);
		const best = faces.sort((a, b) => b.score - a.score)[0];
		return best ? best.x + best.width / 2 : null;
	}

	it("follows the face along its path (9:16 out of 16:9); a centre crop loses it", async () => {
		const { video, result } = await render({ source: "face.mp4", smartCrop: true, watermark: null });
		expect(result.sampledFrames).toBeGreaterThanOrEqual(20);
		expect(result.faceFrames / result.sampledFrames).toBeGreaterThan(0.9);
		for (const t of [1, 2.5, 4, 5.2]) {
			const centre = await faceInOutput(video, t);
			expect(centre, `t=${t}`).not.toBeNull();
			// The crop window is 0.316 of the source wide: 0.12 of it is ±49 px of 1280 off the face's path.
			expect(Math.abs(centre! - 0.5), `t=${t}: face at ${centre}`).toBeLessThan(0.12);
		}
		const { video: centred } = await render({ source: "face.mp4", end: 2, watermark: null });
		expect(faceCentreAt(1)).toBeLessThan(0.3);
		expect(await faceInOutput(centred, 1)).toBeNull();
	});

	it("pans smoothly: the face's position in the output never jumps between frames", async () => {
		const { video } = await render({ source: "face.mp4", smartCrop: true, watermark: null, end: 4 });
		const positions: number[] = [];
		for (let t = 0.4; t < 3.8; t += 0.4) positions.push((await faceInOutput(video, t))!);
		for (let i = 1; i < positions.length; i++)
			expect(Math.abs(positions[i]! - positions[i - 1]!)).toBeLessThan(0.04);
	});

	it("does not crop a 16:9 output of a 16:9 source", async () => {
		const { video, result } = await render({
			source: "face.mp4",
			smartCrop: true,
			aspectRatio: "16:9",
			watermark: null,
			end: 3,
		});
		expect(result.sampledFrames).toBe(0);
		const centre = await faceInOutput(video, 2);
		expect(Math.abs(centre! - faceCentreAt(2))).toBeLessThan(0.03);
	});
});

describe("thumbnails and everything at once", () => {
	it("picks a thumbnail that is not black when the clip starts black", async () => {
		const { thumbnail } = await render({ source: "black-start.mp4", watermark: null });
		expect(meanLuma(frameAt(thumbnail, 0))).toBeGreaterThan(50);
	});

	it("renders captions + hook + image mark + split-screen + smart crop in one clip", async () => {
		const { video, result } = await render({
			source: "face.mp4",
			captions: { look: presetLook("karaoke"), words: WORDS },
			hookTitle: "Everything at once",
			watermark: { kind: "image", imageUrl: `${files.url}/mark.png` },
			splitScreen: { backgroundUrl: `${files.url}/green.mp4`, backgroundKey: "test/green", ratio: 50 },
			smartCrop: true,
		});
		expect(result).toMatchObject({ width: 1080, height: 1920 });
		expect(result.faceFrames).toBeGreaterThan(0);
		const frame = frameAt(video, 1.2);
		if (process.env.KEEP_FRAMES)
			execFileSync("ffmpeg", [
				"-v",
				"error",
				"-y",
				"-ss",
				"1.2",
				"-i",
				video,
				"-frames:v",
				"1",
				"-update",
				"1",
				"-vf",
				"scale=540:-2",
				process.env.KEEP_FRAMES,
			]);
		const seam = layoutFor("9:16", 50).captionY;
		expect(pixelsIn(frame, { x0: 0, y0: seam - 100, x1: 1080, y1: seam + 100 }, isHighlight).count).toBeGreaterThan(
			100,
		);
		expect(pixelsIn(frame, HOOK_BAND, isWhite).count).toBeGreaterThan(1000);
		expect(pixelsIn(frame, { x0: 700, y0: 1700, x1: 1080, y1: 1920 }, isRed).count).toBeGreaterThan(10_000);
		expect(pixelsIn(frame, { x0: 0, y0: 1100, x1: 600, y1: 1600 }, isGreen).count).toBeGreaterThan(100_000);
	});
});
