/**
 * The render tier over HTTP with real tools: a talk video made by ffmpeg (lavfi + flite speech) is
 * served from loopback with Range support; outputs are PUT to a loopback sink, then checked with
 * ffprobe, as the Worker's signed URLs would receive them.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { BUILTIN_BACKGROUNDS, JobEvent, OUTPUT_SIZE, renderJobs, type AspectRatio } from "@clipforge/contract";
import { cpuSlots } from "../src/runtime/encode-slots.ts";
import { transcribeLocally } from "../src/audio/pocketsphinx.ts";
import { createRenderServer } from "../src/server.ts";
import { makeTalkVideo } from "../../../scripts/sample-video.ts";
import { serveDirectory, type FileServer } from "../../../scripts/serve-files.ts";
import { signedPost } from "./signed-post.ts";

const SECONDS = 14;
let media: string;
let sinkDir: string;
let files: FileServer;
let sink: FileServer;
let tier: string;
let closeTier: () => void;

beforeAll(async () => {
	media = mkdtempSync(join(tmpdir(), "render-test-media-"));
	sinkDir = mkdtempSync(join(tmpdir(), "render-test-sink-"));
	process.env.WORK_DIR = mkdtempSync(join(tmpdir(), "render-test-work-"));
	makeTalkVideo({ out: join(media, "talk.mp4"), seconds: SECONDS, width: 320, height: 180 });
	execFileSync("ffmpeg", [
		"-hide_banner",
		"-loglevel",
		"error",
		"-f",
		"lavfi",
		"-i",
		"testsrc2=size=320x180:rate=25",
		"-t",
		"3",
		"-c:v",
		"libx264",
		"-preset",
		"ultrafast",
		join(media, "mute.mp4"),
	]);
	execFileSync("sh", ["-c", `echo "not a video" > ${join(media, "notes.txt")}`]);
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

async function post(path: string, body: unknown) {
	return signedPost(tier, path, body);
}

/** Runs an NDJSON job; returns its progress fractions and its final event. */
async function job(path: string, body: unknown) {
	const response = await post(path, body);
	expect(response.status).toBe(200);
	const events = (await response.text())
		.trim()
		.split("\n")
		.map((line) => JobEvent.parse(JSON.parse(line)));
	const last = events[events.length - 1]!;
	return {
		progress: events.filter((e) => e.type === "progress").map((e) => (e as { fraction: number }).fraction),
		last,
		result: last.type === "result" ? (last.result as any) : null,
	};
}

function ffprobe(path: string) {
	const out = execFileSync("ffprobe", [
		"-v",
		"error",
		"-show_entries",
		"format=duration:stream=codec_type,codec_name,width,height",
		"-of",
		"json",
		path,
	]).toString();
	return JSON.parse(out) as {
		format: { duration: string };
		streams: { codec_type: string; codec_name: string; width?: number; height?: number }[];
	};
}

const sha = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

describe("POST /probe", () => {
	it("reads title, duration, size and audio of a direct file (ffprobe fills what yt-dlp leaves null)", async () => {
		const response = await post(renderJobs.probe.path, { url: `${files.url}/talk.mp4` });
		expect(response.status).toBe(200);
		const info = await response.json();
		expect(info).toMatchObject({ id: "talk", title: "talk", width: 320, height: 180, hasAudio: true });
		expect(info.duration).toBeCloseTo(SECONDS, 0);
		expect(info.channelName).toBe(new URL(files.url).host);
	});

	it("answers 422 unsupported_source for a 404 (in the words of every fetch failure) and for a file that is not a video", async () => {
		for (const [name, fragment] of [
			["missing.mp4", "The source could not be fetched."],
			["notes.txt", "not a playable video"],
		] as const) {
			const response = await post(renderJobs.probe.path, { url: `${files.url}/${name}` });
			expect(response.status).toBe(422);
			const { error } = await response.json();
			expect(error.code).toBe("unsupported_source");
			expect(error.message).toContain(fragment);
			expect(error.retryable).toBe(false);
		}
	});

	it("refuses loopback sources unless ALLOW_PRIVATE_SOURCES=true", async () => {
		process.env.ALLOW_PRIVATE_SOURCES = "false";
		try {
			const response = await post(renderJobs.probe.path, { url: `${files.url}/talk.mp4` });
			expect(response.status).toBe(400);
			expect((await response.json()).error.code).toBe("invalid_url");
		} finally {
			process.env.ALLOW_PRIVATE_SOURCES = "true";
		}
	});

	it("answers 400 for a body that breaks the contract", async () => {
		const response = await post(renderJobs.probe.path, { url: "ftp://example.com/x" });
		expect(response.status).toBe(400);
		expect((await response.json()).error.code).toBe("invalid_request");
	});
});

describe("download and upload-source jobs", () => {
	it("downloads with progress, reuses the finished file, and uploads it byte for byte", async () => {
		const videoId = `v${Date.now()}`;
		const first = await job(renderJobs.download.path, { videoId, url: `${files.url}/talk.mp4` });
		expect(first.result.bytes).toBe(statSync(join(media, "talk.mp4")).size);
		expect(first.progress.at(-1)).toBe(1);
		const again = await job(renderJobs.download.path, { videoId, url: `${files.url}/talk.mp4` });
		expect(again.result.bytes).toBe(first.result.bytes);

		const upload = await job(renderJobs.uploadSource.path, {
			videoId,
			url: `${files.url}/talk.mp4`,
			putUrl: `${sink.url}/${videoId}/source.mp4`,
		});
		expect(upload.result.bytes).toBe(first.result.bytes);
		expect(sha(join(sinkDir, videoId, "source.mp4"))).toBe(sha(join(media, "talk.mp4")));
	});

	it("cuts the audio and measures the loudness from the downloaded copy, so neither waits for the upload to R2", async () => {
		const videoId = `l${Date.now()}`;
		await job(renderJobs.download.path, { videoId, url: `${files.url}/talk.mp4` });
		// The source's R2 URL does not answer yet (the upload is still running): the local copy is used.
		const notYetStored = `${files.url}/not-uploaded-yet.mp4`;
		const chunks = [0, 1, 2].map((index) => ({
			index,
			start: index * 3,
			duration: 4,
			putUrl: `${sink.url}/${videoId}/chunk-${index}.mp3`,
		}));
		const extracted = await job(renderJobs.extractAudio.path, { videoId, sourceUrl: notYetStored, chunks });
		// Cut one per core at once, reported in index order.
		expect(extracted.result.chunks.map((c: { index: number }) => c.index)).toEqual([0, 1, 2]);
		for (const chunk of chunks)
			expect(Number(ffprobe(join(sinkDir, videoId, `chunk-${chunk.index}.mp3`)).format.duration)).toBeCloseTo(
				4,
				0,
			);
		const signals = await job(renderJobs.signals.path, {
			videoId,
			sourceUrl: notYetStored,
			duration: 10,
			start: 0,
			end: 10,
			putUrl: `${sink.url}/${videoId}/signals.json`,
		});
		expect(signals.result.intervals).toBeGreaterThan(15);
		// Without a download on this instance, the same request reads the URL, and fails as before.
		const { last } = await job(renderJobs.extractAudio.path, {
			videoId: `${videoId}x`,
			sourceUrl: notYetStored,
			chunks: chunks.slice(0, 1),
		});
		expect(last).toMatchObject({ type: "error", error: { retryable: true } });
	});

	it("reports a download of a missing source as a non-retryable error event", async () => {
		const { last } = await job(renderJobs.download.path, {
			videoId: `gone${Date.now()}`,
			url: `${files.url}/missing.mp4`,
		});
		expect(last).toMatchObject({ type: "error", error: { code: "unsupported_source", retryable: false } });
	});
});

describe("extract-audio and transcribe jobs", () => {
	it("cuts 16 kHz mono chunks and pocketsphinx recognises the speech with word timings", async () => {
		const videoId = `a${Date.now()}`;
		const chunks = [
			{ index: 0, start: 0, duration: 8, putUrl: `${sink.url}/${videoId}/chunk-0.mp3` },
			{ index: 1, start: 6, duration: 8, putUrl: `${sink.url}/${videoId}/chunk-1.mp3` },
		];
		const extracted = await job(renderJobs.extractAudio.path, {
			videoId,
			sourceUrl: `${files.url}/talk.mp4`,
			chunks,
		});
		expect(extracted.result.chunks.map((c: { index: number }) => c.index)).toEqual([0, 1]);
		for (const chunk of chunks) {
			const probe = ffprobe(join(sinkDir, videoId, `chunk-${chunk.index}.mp3`));
			expect(Number(probe.format.duration)).toBeCloseTo(8, 0);
			expect(probe.streams[0]).toMatchObject({ codec_type: "audio", codec_name: "mp3" });
		}

		const transcribed = await job(renderJobs.transcribe.path, {
			audioUrl: `${sink.url}/${videoId}/chunk-0.mp3`,
			language: null,
		});
		// Progress comes from the word timings pocketsphinx prints as it goes.
		expect(transcribed.progress.length).toBeGreaterThan(0);
		expect(transcribed.progress.every((f, i, all) => f > 0 && f <= 1 && (i === 0 || f >= all[i - 1]!))).toBe(true);
		const words = transcribed.result.segments.flatMap(
			(s: { words: { word: string; start: number; end: number }[] }) => s.words,
		);
		expect(transcribed.result.language).toBe("en");
		expect(words.length).toBeGreaterThanOrEqual(8);
		const text = words.map((w: { word: string }) => w.word).join(" ");
		expect(text).toMatch(/welcome|show|sleep|talking/);
		for (const w of words) {
			expect(w.end).toBeGreaterThan(w.start);
			expect(w.start).toBeGreaterThanOrEqual(0);
			expect(w.end).toBeLessThanOrEqual(8.1);
		}

		// Recognition is CPU work: while every core's slot is held, a chunk waits in line for one.
		const held = await Promise.all(Array.from({ length: cpuSlots.size }, () => cpuSlots.acquire()));
		const inLine = transcribeLocally(`${sink.url}/${videoId}/chunk-1.mp3`, null, () => undefined);
		await vi.waitFor(() => expect(cpuSlots.queued).toBe(1), { timeout: 10_000 });
		for (const release of held) release();
		expect((await inLine).segments.length).toBeGreaterThan(0);
	});

	it("refuses a language the local engine does not have", async () => {
		const { last } = await job(renderJobs.transcribe.path, { audioUrl: `${files.url}/talk.mp4`, language: "hi" });
		expect(last).toMatchObject({ type: "error", error: { code: "invalid_request", retryable: false } });
	});
});

describe("render-clip job", () => {
	for (const aspectRatio of ["9:16", "16:9", "1:1"] as AspectRatio[]) {
		it(`renders ${aspectRatio} at ${OUTPUT_SIZE[aspectRatio].width}x${OUTPUT_SIZE[aspectRatio].height}, H.264/AAC, the clip's length, with a thumbnail`, async () => {
			const videoId = `r${Date.now()}`;
			const clipId = `clip-${aspectRatio.replace(":", "x")}`;
			const { result, progress } = await job(renderJobs.renderClip.path, {
				videoId,
				clipId,
				sourceUrl: `${files.url}/talk.mp4`,
				start: 2.5,
				end: 6.5,
				aspectRatio,
				watermark: aspectRatio === "9:16" ? { kind: "text", text: 'clipforge: 100% "real"' } : null,
				videoPutUrl: `${sink.url}/${videoId}/${clipId}.mp4`,
				thumbnailPutUrl: `${sink.url}/${videoId}/${clipId}.jpg`,
			});
			expect(progress.at(-1)).toBe(1);
			const { width, height } = OUTPUT_SIZE[aspectRatio];
			const clip = ffprobe(join(sinkDir, videoId, `${clipId}.mp4`));
			expect(clip.streams.find((s) => s.codec_type === "video")).toMatchObject({
				codec_name: "h264",
				width,
				height,
			});
			expect(clip.streams.find((s) => s.codec_type === "audio")).toMatchObject({ codec_name: "aac" });
			expect(Number(clip.format.duration)).toBeGreaterThan(3.9);
			expect(Number(clip.format.duration)).toBeLessThan(4.15);
			expect(result).toMatchObject({ width, height });
			const thumb = ffprobe(join(sinkDir, videoId, `${clipId}.jpg`));
			expect(thumb.streams[0]).toMatchObject({
				codec_name: "mjpeg",
				width: 540,
				height: Math.round((540 * height) / width / 2) * 2,
			});
			// faststart: the moov atom comes before mdat.
			const head = readFileSync(join(sinkDir, videoId, `${clipId}.mp4`))
				.subarray(0, 4096)
				.toString("latin1");
			expect(head.indexOf("moov")).toBeGreaterThan(-1);
			expect(head.indexOf("moov")).toBeLessThan(head.indexOf("mdat") === -1 ? Infinity : head.indexOf("mdat"));
		});
	}
});

describe("signals job", () => {
	it("measures loudness per half second: speech is loud, the pauses between sentences quiet", async () => {
		const videoId = `s${Date.now()}`;
		const { result } = await job(renderJobs.signals.path, {
			videoId,
			sourceUrl: `${files.url}/talk.mp4`,
			duration: SECONDS,
			start: 0,
			end: SECONDS,
			putUrl: `${sink.url}/${videoId}/signals.json`,
		});
		const signals = JSON.parse(readFileSync(join(sinkDir, videoId, "signals.json"), "utf8"));
		expect(signals.intervalSeconds).toBe(0.5);
		expect(result.intervals).toBe(signals.loudness.length);
		expect(signals.loudness.length).toBeGreaterThanOrEqual(SECONDS * 2 - 1);
		const sorted = [...signals.loudness].sort((a: number, b: number) => a - b);
		const loudest = sorted[sorted.length - 3];
		const quietest = sorted[2];
		expect(loudest).toBeGreaterThan(-35); // speech
		expect(loudest - quietest).toBeGreaterThan(15); // pauses are much quieter
	});

	it("gives empty signals for a video without audio", async () => {
		const videoId = `m${Date.now()}`;
		const { result } = await job(renderJobs.signals.path, {
			videoId,
			sourceUrl: `${files.url}/mute.mp4`,
			duration: 3,
			start: 0,
			end: 3,
			putUrl: `${sink.url}/${videoId}/signals.json`,
		});
		expect(result).toMatchObject({ intervals: 0 });
		expect(JSON.parse(readFileSync(join(sinkDir, videoId, "signals.json"), "utf8")).loudness).toEqual([]);
	});
});

describe("background and media import jobs", () => {
	it("draws every built-in background: a 12 s silent H.264 loop, 540x960", async () => {
		for (const { id } of BUILTIN_BACKGROUNDS) {
			const { result } = await job(renderJobs.makeBackground.path, {
				backgroundId: id,
				putUrl: `${sink.url}/bg/${id}.mp4`,
			});
			expect(result).toMatchObject({ width: 540, height: 960, duration: 12 });
			const probe = ffprobe(join(sinkDir, "bg", `${id}.mp4`));
			expect(probe.streams).toEqual([
				expect.objectContaining({ codec_type: "video", codec_name: "h264", width: 540, height: 960 }),
			]);
			expect(Number(probe.format.duration)).toBeCloseTo(12, 0);
		}
	});

	it("imports a user's background video without its sound, and a watermark picture as PNG", async () => {
		const { result: video } = await job(renderJobs.importMedia.path, {
			kind: "background",
			url: `${files.url}/talk.mp4`,
			putUrl: `${sink.url}/import/bg.mp4`,
		});
		expect(video).toMatchObject({ width: 320, height: 180 });
		expect(ffprobe(join(sinkDir, "import", "bg.mp4")).streams.map((s) => s.codec_type)).toEqual(["video"]);

		execFileSync("ffmpeg", [
			"-v",
			"error",
			"-y",
			"-f",
			"lavfi",
			"-i",
			"color=c=red@0.5:s=900x300,format=rgba",
			"-frames:v",
			"1",
			"-update",
			"1",
			join(media, "logo.png"),
		]);
		const { result: mark } = await job(renderJobs.importMedia.path, {
			kind: "watermark",
			url: `${files.url}/logo.png`,
			putUrl: `${sink.url}/import/mark.png`,
		});
		expect(mark).toMatchObject({ width: 512, duration: 0 });
		expect(ffprobe(join(sinkDir, "import", "mark.png")).streams[0]).toMatchObject({
			codec_name: "png",
			width: 512,
		});
	});

	it("refuses something that is not a picture or a video, without retrying", async () => {
		const { last } = await job(renderJobs.importMedia.path, {
			kind: "watermark",
			url: `${files.url}/notes.txt`,
			putUrl: `${sink.url}/import/x.png`,
		});
		expect(last).toMatchObject({ type: "error", error: { code: "unsupported_source", retryable: false } });
	});
});
