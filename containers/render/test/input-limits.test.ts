/**
 * Bounds on inputs, with media the test makes: a 16000×16000 PNG watermark (refused from its
 * header, never decoded), files above the byte and pixel limits (refused at the probe, before
 * anything is charged, and at the download), a download that lasts other than what was probed,
 * and loudness measured over the charged time frame only.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEFAULT_IMAGE_LIMITS, DEFAULT_SOURCE_LIMITS, type AudioSignals } from "@clipforge/contract";
import { serveDirectory, type FileServer } from "../../../scripts/serve-files.ts";
import { importMedia } from "../src/media/import-media.ts";
import { downloadSource, sourcePath } from "../src/source/download.ts";
import { durationTolerance, mediaFacts } from "../src/source/media-limits.ts";
import { probeSource } from "../src/source/probe.ts";
import { computeSignals } from "../src/audio/signals.ts";

const work = await vi.hoisted(async () => {
	const { mkdtempSync } = await import("node:fs");
	const { tmpdir } = await import("node:os");
	const dir = mkdtempSync(`${tmpdir()}/render-limits-`);
	process.env.WORK_DIR = `${dir}/work`;
	return dir;
});
const media = join(work, "media");
const sinkDir = join(work, "sink");
let files: FileServer;
let sink: FileServer;
const never = new AbortController().signal;

const ffmpeg = (...args: string[]) => execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", ...args]);

beforeAll(async () => {
	mkdirSync(media, { recursive: true });
	mkdirSync(sinkDir, { recursive: true });
	// 16000×16000: 82 KB on disk (one bit per pixel), ~1 GB once decoded as RGBA.
	ffmpeg(
		"-f",
		"lavfi",
		"-i",
		"color=c=red:s=16000x16000",
		"-frames:v",
		"1",
		"-pix_fmt",
		"monob",
		join(media, "huge.png"),
	);
	ffmpeg("-f", "lavfi", "-i", "color=c=blue:s=400x100", "-frames:v", "1", join(media, "logo.png"));
	// 10 s, 640×360, a loud tone from 4 s to 6 s over near silence.
	ffmpeg(
		"-f",
		"lavfi",
		"-i",
		"testsrc2=size=640x360:rate=25",
		"-f",
		"lavfi",
		"-i",
		"sine=frequency=440:sample_rate=48000,volume='if(between(t,4,6),1,0.001)':eval=frame",
		"-t",
		"10",
		"-c:v",
		"libx264",
		"-preset",
		"ultrafast",
		"-b:v",
		"600k",
		"-c:a",
		"aac",
		"-shortest",
		join(media, "ten.mp4"),
	);
	files = await serveDirectory(media);
	sink = await serveDirectory(sinkDir, { acceptPut: true });
});

afterAll(async () => {
	await files?.close();
	await sink?.close();
	rmSync(work, { recursive: true, force: true });
});

const tierError = (error: unknown) => error as { code: string; message: string; retryable: boolean; status: number };

describe("pictures are sized from their header, before decoding", () => {
	it("a 16000×16000 PNG watermark is refused (422) without being decoded", async () => {
		const started = Date.now();
		const error = tierError(
			await importMedia(
				{ kind: "watermark", url: `${files.url}/huge.png`, putUrl: `${sink.url}/wm.png`, limits: null },
				() => {},
				never,
			).catch((e: unknown) => e),
		);
		expect(error).toMatchObject({ code: "unsupported_source", retryable: false, status: 422 });
		expect(error.message).toContain("16000x16000 (256.0 MP)");
		expect(error.message).toContain("16.8 MP");
		expect(Date.now() - started).toBeLessThan(10_000);
		expect(existsSync(join(sinkDir, "wm.png"))).toBe(false);
	});

	it("ffprobe under -max_pixels reports the size without decoding it (memory stays small)", async () => {
		const facts = await mediaFacts(join(media, "huge.png"), DEFAULT_IMAGE_LIMITS.maxPixels);
		expect(facts).toMatchObject({ hasVideo: true, width: 16000, height: 16000 });
		// The tier's probe, measured (peak KB): without -max_pixels ffprobe decodes the frame.
		const peakKb = (extra: string[]) => {
			const run = spawnSync(
				"/usr/bin/time",
				[
					"-f",
					"peak=%M",
					"ffprobe",
					"-v",
					"error",
					...extra,
					"-show_entries",
					"stream=width",
					"-of",
					"csv=p=0",
					join(media, "huge.png"),
				],
				{ encoding: "utf8" },
			);
			return Number(/peak=(\d+)/.exec(run.stderr)?.[1]);
		};
		const bounded = peakKb(["-max_pixels", String(DEFAULT_IMAGE_LIMITS.maxPixels)]);
		const unbounded = peakKb([]);
		expect(bounded).toBeLessThan(150_000);
		expect(unbounded).toBeGreaterThan(bounded + 20_000);
	});

	it("a picture within the limits is imported as before", async () => {
		const result = await importMedia(
			{ kind: "watermark", url: `${files.url}/logo.png`, putUrl: `${sink.url}/logo-out.png`, limits: null },
			() => {},
			never,
		);
		expect(result).toMatchObject({ width: 400, height: 100 });
	});

	it("a background video above the pixel or byte limit is refused (422)", async () => {
		for (const limits of [
			{ maxPixels: 320 * 180, maxBytes: 1e9 },
			{ maxPixels: 1e8, maxBytes: 10_000 },
		]) {
			const error = tierError(
				await importMedia(
					{ kind: "background", url: `${files.url}/ten.mp4`, putUrl: `${sink.url}/bg.mp4`, limits },
					() => {},
					never,
				).catch((e: unknown) => e),
			);
			expect(error).toMatchObject({ code: "unsupported_source", status: 422 });
			expect(error.message).toMatch(/640x360|is \d+ KB; at most 10 KB/);
		}
	});
});

describe("sources are held to the limits at the probe (nothing charged yet)", () => {
	it("a direct file above the pixel limit → 422 naming its size", async () => {
		const error = tierError(
			await probeSource(`${files.url}/ten.mp4`, {
				maxPixels: 320 * 180,
				maxBytes: DEFAULT_SOURCE_LIMITS.maxBytes,
			}).catch((e: unknown) => e),
		);
		expect(error).toMatchObject({ code: "unsupported_source", status: 422 });
		expect(error.message).toContain("640x360");
	});

	it("a direct file whose announced size is above the byte limit → 422", async () => {
		const size = statSync(join(media, "ten.mp4")).size;
		const error = tierError(
			await probeSource(`${files.url}/ten.mp4`, {
				maxPixels: DEFAULT_SOURCE_LIMITS.maxPixels,
				maxBytes: Math.floor(size / 2),
			}).catch((e: unknown) => e),
		);
		expect(error).toMatchObject({ code: "unsupported_source", status: 422 });
		expect(error.message).toMatch(
			new RegExp(`is ${Math.round(size / 1024)} KB; at most ${Math.round(Math.floor(size / 2) / 1024)} KB`),
		);
	});

	it("within the limits it probes as before", async () => {
		const info = await probeSource(`${files.url}/ten.mp4`);
		expect(info).toMatchObject({ width: 640, height: 360, hasAudio: true });
	});
});

describe("an upload is read by ffprobe alone, under the limits and the upload formats", () => {
	/** An upload that yt-dlp's generic extractor reads as a page describing a video, and ffmpeg as something else. */
	const hostile = () => {
		const jsonLd = {
			"@context": "https://schema.org",
			"@type": "VideoObject",
			name: "Looks like a video",
			duration: "PT10S",
			width: 640,
			height: 360,
			thumbnailUrl: `${files.url}/logo.png`,
			contentUrl: `${files.url}/ten.mp4`,
			uploadDate: "2024-01-01",
		};
		writeFileSync(
			join(media, "page.bin"),
			`<!DOCTYPE html><html><head><title>x</title><script type="application/ld+json">${JSON.stringify(jsonLd)}</script></head><body></body></html>`,
		);
		writeFileSync(
			join(media, "list.bin"),
			"#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nten.mp4\n#EXT-X-ENDLIST\n",
		);
	};

	it("an HTML page with JSON-LD VideoObject metadata, or an HLS playlist, uploaded as a file → 422, nothing opened past it", async () => {
		hostile();
		for (const name of ["page.bin", "list.bin"]) {
			const error = tierError(
				await probeSource(`${files.url}/${name}`, DEFAULT_SOURCE_LIMITS, never, { upload: true }).catch(
					(e: unknown) => e,
				),
			);
			expect(error, name).toMatchObject({ code: "unsupported_source", status: 422 });
		}
	});

	it("the hole it closes, confirmed: probed through yt-dlp, the page's JSON-LD stands in for the file and the limits are not checked", async () => {
		hostile();
		// A hosted URL still takes this path; its download step then checks the file itself
		// (assertDownloadMatches), which an upload used to skip.
		const asUrl = await probeSource(`${files.url}/page.bin`, { maxPixels: 320 * 180, maxBytes: 1024 });
		expect(asUrl).toMatchObject({ title: "Looks like a video", duration: 10, width: 640, height: 360 });
	});

	it("a real file uploaded probes as before, and above the pixel limit → 422", async () => {
		const info = await probeSource(`${files.url}/ten.mp4`, DEFAULT_SOURCE_LIMITS, never, { upload: true });
		expect(info).toMatchObject({ width: 640, height: 360, hasAudio: true, duration: 10 });
		const error = tierError(
			await probeSource(
				`${files.url}/ten.mp4`,
				{ maxPixels: 320 * 180, maxBytes: DEFAULT_SOURCE_LIMITS.maxBytes },
				never,
				{
					upload: true,
				},
			).catch((e: unknown) => e),
		);
		expect(error).toMatchObject({ code: "unsupported_source", status: 422 });
	});
});

describe("the download is checked against the probe and the limits", () => {
	let n = 0;
	const spec = (overrides: object) => ({
		videoId: `vid_lim${++n}`,
		url: `${files.url}/ten.mp4`,
		limits: DEFAULT_SOURCE_LIMITS,
		expectedDuration: 10,
		...overrides,
	});

	it("an oversized file is not kept (--max-filesize; nothing left on disk)", async () => {
		const s = spec({ limits: { maxPixels: DEFAULT_SOURCE_LIMITS.maxPixels, maxBytes: 100_000 } });
		const error = tierError(await downloadSource(s, () => {}).catch((e: unknown) => e));
		expect(error).toMatchObject({ code: "unsupported_source", retryable: false });
		expect(error.message).toContain("larger than the 98 KB limit");
		expect(existsSync(await sourcePath(s.videoId))).toBe(false);
	});

	it("a file that lasts other than the probe said (the server swapped it) is refused", async () => {
		for (const expectedDuration of [60, 5]) {
			const s = spec({ expectedDuration });
			const error = tierError(await downloadSource(s, () => {}).catch((e: unknown) => e));
			expect(error).toMatchObject({ code: "unsupported_source", retryable: false });
			expect(error.message).toMatch(/lasts 10\.\d s, not the (60|5)\.0 s/);
			expect(existsSync(await sourcePath(s.videoId))).toBe(false);
		}
		expect(durationTolerance(10)).toBe(3);
		expect(durationTolerance(3600)).toBe(36);
	});

	it("a direct file of unknown height above the pixel limit is downloaded by the filter but refused by the check", async () => {
		const s = spec({ limits: { maxPixels: 320 * 180, maxBytes: DEFAULT_SOURCE_LIMITS.maxBytes } });
		const error = tierError(await downloadSource(s, () => {}).catch((e: unknown) => e));
		expect(error.message).toContain("640x360");
		expect(existsSync(await sourcePath(s.videoId))).toBe(false);
	});

	it("a file that matches is kept, and reused the next time", async () => {
		const s = spec({ expectedDuration: 10.5 });
		const first = await downloadSource(s, () => {});
		expect(first.bytes).toBe(statSync(join(media, "ten.mp4")).size);
		expect((await downloadSource(s, () => {})).bytes).toBe(first.bytes);
	});
});

describe("loudness", () => {
	it("is measured over the charged time frame only, indexed from the source's start", async () => {
		const result = await computeSignals(
			{
				videoId: "vid_loud",
				sourceUrl: `${files.url}/ten.mp4`,
				sourceStart: 0,
				duration: 10,
				start: 3,
				end: 7,
				putUrl: `${sink.url}/signals.json`,
			},
			() => {},
			never,
		);
		const signals = JSON.parse(readFileSync(join(sinkDir, "signals.json"), "utf8")) as AudioSignals;
		expect(result.intervals).toBe(signals.loudness.length);
		// Slots 0-5 (0-3 s) are before the frame: never measured.
		expect(signals.loudness.slice(0, 6).every((v) => v === -120)).toBe(true);
		// Nothing after the frame's end (7 s = slot 14).
		expect(signals.loudness.length).toBeLessThanOrEqual(15);
		// The tone (4-6 s) is loud where it is, the quiet part of the frame is not.
		const at = (seconds: number) => signals.loudness[Math.floor(seconds / signals.intervalSeconds)]!;
		expect(at(5)).toBeGreaterThan(-30);
		expect(at(3.2)).toBeLessThan(-50);
	});
});
