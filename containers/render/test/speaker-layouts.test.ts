/**
 * Speaker layouts, read back from decoded frames. The source is two people side by side (the same
 * public-domain face, one tinted blue; a red card under the left person, a green one under the
 * right) taking turns: flite speech on the speaker's own stereo channel while a dark mouth box
 * flickers on the speaker's face. Which card is on screen says who is in view.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JobEvent, presetLook, renderJobs, type RenderClipRequest, type RenderClipResult } from "@clipforge/contract";
import { detectFaces } from "../src/framing/faces.ts";
import { createRenderServer } from "../src/server.ts";
import { MIN_HOLD_SECONDS } from "../src/framing/speakers.ts";
import { serveDirectory, type FileServer } from "../../../scripts/serve-files.ts";
import { frameAt, isGreen, isRed, isWhite, pixelsIn } from "./frames.ts";
import { signedPost } from "./signed-post.ts";

const FACE = join(import.meta.dirname, "fixtures", "face.png");
const SECONDS = 9;
/** Who speaks when: left (A) until 3 s, right (B) until 6.5 s, then left again. */
const TURNS = [
	{ from: 0, to: 3, who: "left" },
	{ from: 3, to: 6.5, who: "right" },
	{ from: 6.5, to: SECONDS, who: "left" },
] as const;
const speakerAt = (t: number) => TURNS.find((turn) => t >= turn.from && t < turn.to)!.who;

let media: string;
let sinkDir: string;
let files: FileServer;
let sink: FileServer;
let tier: string;
let closeTier: () => void;

const ffmpeg = (...args: string[]) => execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", ...args]);

/** A mouth box on the face placed at x (220 px face), opening and closing twice a second while `enable` holds. */
const mouth = (x: number, enable: string) =>
	`drawbox=x=${x + 89}:y=316:w=44:h=16:color=black:t=fill:enable='(${enable})*lt(mod(t+0.125\\,0.5)\\,0.25)'`;

beforeAll(async () => {
	media = mkdtempSync(join(tmpdir(), "speakers-media-"));
	sinkDir = mkdtempSync(join(tmpdir(), "speakers-sink-"));
	process.env.WORK_DIR = mkdtempSync(join(tmpdir(), "speakers-work-"));
	writeFileSync(
		join(media, "a.txt"),
		"Welcome back to the show. Today we talk about rivers and mountains and the sea.",
	);
	writeFileSync(join(media, "b.txt"), "Thanks for having me. I love the mountains, they are so quiet in the winter.");
	writeFileSync(join(media, "c.txt"), "That is a great point, tell me more about the quiet.");
	const encode = [
		"-c:v",
		"libx264",
		"-preset",
		"ultrafast",
		"-pix_fmt",
		"yuv420p",
		"-c:a",
		"aac",
		"-t",
		String(SECONDS),
	];
	const voice = (file: string) => ["-f", "lavfi", "-i", `flite=textfile=${join(media, file)}:voice=slt`];
	const cards =
		"drawbox=x=170:y=430:w=220:h=120:color=0xe01010:t=fill,drawbox=x=890:y=430:w=220:h=120:color=0x10c020:t=fill";
	ffmpeg(
		"-f",
		"lavfi",
		"-i",
		`color=c=0x2a3540:s=1280x720:r=25:d=${SECONDS}`,
		"-i",
		FACE,
		...voice("a.txt"),
		...voice("b.txt"),
		...voice("c.txt"),
		"-filter_complex",
		[
			"[1:v]scale=220:220,split=2[fa][fb0]",
			"[fb0]colorchannelmixer=rr=0.6:bb=1.4[fb]",
			"[0:v][fa]overlay=x=170:y=200[v1]",
			`[v1][fb]overlay=x=890:y=200,${cards},${mouth(170, "lt(t\\,3)+between(t\\,6.5\\,9)")},${mouth(890, "between(t\\,3\\,6.5)")}[v]`,
			"[2:a]aresample=48000,atrim=0:2.9,pan=stereo|c0=c0|c1=0*c0[a1]",
			"[3:a]aresample=48000,atrim=0:3.4,adelay=3000|3000,pan=stereo|c0=0*c0|c1=c0[a2]",
			"[4:a]aresample=48000,atrim=0:2.4,adelay=6500|6500,pan=stereo|c0=c0|c1=0*c0[a3]",
			`[a1][a2][a3]amix=inputs=3:normalize=0:duration=longest,apad=whole_dur=${SECONDS}[a]`,
		].join(";"),
		"-map",
		"[v]",
		"-map",
		"[a]",
		...encode,
		join(media, "two.mp4"),
	);
	// One person (the left one, talking): speaker layouts must leave it exactly as smart crop draws it.
	ffmpeg(
		"-f",
		"lavfi",
		"-i",
		`color=c=0x2a3540:s=1280x720:r=25:d=4`,
		"-i",
		FACE,
		...voice("a.txt"),
		"-filter_complex",
		`[1:v]scale=220:220[f];[0:v][f]overlay=x=300:y=200,${mouth(300, "1")}[v];[2:a]aresample=48000,pan=stereo|c0=c0|c1=c0[a]`,
		"-map",
		"[v]",
		"-map",
		"[a]",
		...encode.slice(0, -1),
		"4",
		join(media, "one.mp4"),
	);
	// The same dialogue mixed to mono (most podcasts): only mouth motion can tell who speaks.
	ffmpeg("-i", join(media, "two.mp4"), "-c:v", "copy", "-ac", "1", "-c:a", "aac", join(media, "two-mono.mp4"));
	ffmpeg(
		"-f",
		"lavfi",
		"-i",
		"testsrc2=s=1280x720:r=25:d=2",
		...voice("c.txt"),
		"-map",
		"0:v",
		"-map",
		"1:a",
		...encode.slice(0, -1),
		"2",
		join(media, "plain.mp4"),
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
async function render(options: Partial<RenderClipRequest> & { source: string }) {
	const videoId = `spk${Date.now()}${counter++}`;
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
	const started = performance.now();
	const response = await signedPost(tier, renderJobs.renderClip.path, body);
	const events = (await response.text())
		.trim()
		.split("\n")
		.map((line) => JobEvent.parse(JSON.parse(line)));
	const last = events.at(-1)!;
	if (last.type !== "result") throw new Error(`render failed: ${JSON.stringify(last)}`);
	return {
		video: join(sinkDir, videoId, "clip.mp4"),
		result: last.result as RenderClipResult,
		seconds: (performance.now() - started) / 1000,
	};
}

/** Who is in view: the red card (left person) or the green one (right person), by pixel count. */
function inView(
	video: string,
	t: number,
	region?: { y0: number; y1: number },
): { red: number; green: number; who: "left" | "right" | null } {
	const frame = frameAt(video, t, 108);
	const area = { x0: 0, x1: frame.width, y0: region?.y0 ?? 0, y1: region?.y1 ?? frame.height };
	const red = pixelsIn(frame, area, isRed).count;
	const green = pixelsIn(frame, area, isGreen).count;
	return { red, green, who: red > 150 && red > 3 * green ? "left" : green > 150 && green > 3 * red ? "right" : null };
}

/**
 * Who is in view every quarter second of the clip (frames nearest 0.125, 0.375, …), from one decode
 * of every frame (the fps filter's start_time shifts frames of a file with audio: not used).
 */
function timeline(video: string): { t: number; who: "left" | "right" | null }[] {
	const [width, height] = [54, 96];
	const [num, den] = execFileSync("ffprobe", [
		"-v",
		"error",
		"-select_streams",
		"v:0",
		"-show_entries",
		"stream=r_frame_rate",
		"-of",
		"csv=p=0",
		video,
	])
		.toString()
		.trim()
		.split("/")
		.map(Number);
	const fps = num! / (den ?? 1);
	const raw = execFileSync(
		"ffmpeg",
		["-v", "error", "-i", video, "-vf", `scale=${width}:${height}`, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
		{ maxBuffer: 256 * 1024 * 1024 },
	);
	const bytes = width * height * 3;
	const out: { t: number; who: "left" | "right" | null }[] = [];
	for (let t = 0.125; Math.round(t * fps) * bytes < raw.length - bytes + 1; t += 0.25) {
		const i = Math.round(t * fps);
		const frame = { width, height, rgb: raw.subarray(i * bytes, (i + 1) * bytes) };
		const region = { x0: 0, y0: 0, x1: width, y1: height };
		const red = pixelsIn(frame, region, isRed).count;
		const green = pixelsIn(frame, region, isGreen).count;
		out.push({ t, who: red > 40 && red > 3 * green ? "left" : green > 40 && green > 3 * red ? "right" : null });
	}
	return out;
}

describe("follow-speaker", () => {
	for (const source of ["two.mp4", "two-mono.mp4"]) {
		it(`shows whoever is speaking, cuts between them, and never ping-pongs (${source})`, async () => {
			const { video, result, seconds } = await render({ source, layout: "follow-speaker" });
			expect(result.framing).toBe("follow-speaker");
			const seen = timeline(video);
			const correct = seen.filter((s) => s.who === speakerAt(s.t)).length / seen.length;
			// Away from the true turn changes (by more than the confirm time and smoothing), always the speaker.
			const far = seen.filter((s) => TURNS.every((turn) => Math.abs(s.t - turn.from) > 0.6 || turn.from === 0));
			expect(
				far.every((s) => s.who === speakerAt(s.t)),
				JSON.stringify(seen),
			).toBe(true);
			expect(correct).toBeGreaterThan(0.85);
			// Exactly the two real turn changes, each a cut (no frame in between shows nobody: no pan).
			const runs: { who: string | null; from: number; to: number }[] = [];
			for (const s of seen) {
				if (runs.at(-1)?.who === s.who) runs.at(-1)!.to = s.t;
				else runs.push({ who: s.who, from: s.t, to: s.t });
			}
			expect(runs.map((r) => r.who)).toEqual(["left", "right", "left"]);
			for (const run of runs) expect(run.to - run.from + 0.25).toBeGreaterThanOrEqual(MIN_HOLD_SECONDS);
			console.info(
				`follow-speaker (${source}): ${(correct * 100).toFixed(0)}% of sampled frames show the speaker; cuts at ${runs
					.slice(1)
					.map((r) => r.from.toFixed(2))
					.join(", ")} s (true 3, 6.5); render ${seconds.toFixed(1)} s`,
			);
		});
	}

	it("auto (with smart crop on) picks follow-speaker for two people whose turns can be told apart", async () => {
		const { result } = await render({ source: "two.mp4", layout: "auto", smartCrop: true, end: 5 });
		expect(result.framing).toBe("follow-speaker");
	});

	it("auto with smart crop off (the default) scans nothing and keeps the centre: a default render costs what it did", async () => {
		const { result } = await render({ source: "two.mp4", layout: "auto", end: 2 });
		expect(result).toMatchObject({ framing: "centre", sampledFrames: 0 });
	});
});

describe("stacked", () => {
	it("shows both people, the left one on top, each cropped around the face", async () => {
		const words = [
			{ word: "Welcome", start: 0.2, end: 0.8 },
			{ word: "back", start: 0.8, end: 1.2 },
			{ word: "everyone.", start: 1.2, end: 2.5 },
		];
		const { video, result, seconds } = await render({
			source: "two.mp4",
			layout: "stacked",
			end: 4,
			captions: { look: presetLook("sentence"), words },
		});
		expect(result.framing).toBe("stacked");
		for (const t of [0.5, 2, 3.5]) {
			const top = inView(video, t, { y0: 0, y1: 96 });
			const bottom = inView(video, t, { y0: 96, y1: 192 });
			expect([top.who, bottom.who], `t=${t}`).toEqual(["left", "right"]);
		}
		// The captions sit on the seam and cover neither face.
		const frame = frameAt(video, 1.5, 540);
		const seam = frame.height / 2;
		const band = { x0: 0, x1: frame.width, y0: seam - 70, y1: seam + 70 };
		expect(pixelsIn(frame, band, isWhite).count).toBeGreaterThan(300);
		// Each half on its own (the detector squeezes a tall frame to a square and loses small faces).
		const half = frame.width * seam * 3;
		const [top] = await detectFaces(frame.rgb.subarray(0, half), frame.width, seam);
		const [bottom] = await detectFaces(frame.rgb.subarray(half, 2 * half), frame.width, seam);
		expect(top && bottom).toBeTruthy();
		expect((top!.y + top!.height) * seam).toBeLessThan(band.y0);
		expect(seam + bottom!.y * seam).toBeGreaterThan(band.y1);
		console.info(`stacked: render ${seconds.toFixed(1)} s for 4 s`);
	});

	it("with silences removed, cuts both halves and the sound at the same instants (stacked cuts before its split)", async () => {
		const pauses = [
			{ start: 1, end: 1.6 },
			{ start: 2.5, end: 3.1 },
		];
		const { video, result } = await render({
			source: "two.mp4",
			layout: "stacked",
			end: 4,
			jumpCuts: { pauses, confirmWithAudio: false },
		});
		expect(result.framing).toBe("stacked");
		expect(result.cuts).toBe(2);
		expect(result.duration).toBeCloseTo(4 - result.removedSeconds, 1);
		const streams = (kind: string) =>
			Number(
				execFileSync("ffprobe", [
					"-v",
					"error",
					"-select_streams",
					kind,
					"-show_entries",
					"stream=duration",
					"-of",
					"csv=p=0",
					video,
				])
					.toString()
					.trim(),
			);
		// Picture and sound lose the same time: no drift between them.
		expect(Math.abs(streams("v:0") - streams("a:0"))).toBeLessThan(0.06);
		expect(inView(video, 0.5, { y0: 0, y1: 96 }).who).toBe("left");
		expect(inView(video, 2.5, { y0: 96, y1: 192 }).who).toBe("right");
		// The picture is cut too: 1.3 s into the cut clip shows what 1.3 s + the first cut shows uncut.
		const plain = await render({ source: "two.mp4", layout: "stacked", end: 4 });
		const cutAt = frameAt(video, 1.3, 108).rgb;
		const difference = (t: number) => {
			const other = frameAt(plain.video, t, 108).rgb;
			let sum = 0;
			for (let i = 0; i < cutAt.length; i++) sum += Math.abs(cutAt[i]! - other[i]!);
			return sum / cutAt.length;
		};
		const shift = 1.3 + (result.removedSeconds > 0 ? 0.6 : 0);
		expect(difference(shift)).toBeLessThan(difference(1.3));
	});
});

describe("one face or none: auto is what the clip was before speaker layouts", () => {
	const md5 = (video: string) =>
		execFileSync("ffmpeg", ["-v", "error", "-i", video, "-map", "0:v", "-f", "md5", "-"]).toString();

	it("with smart crop on, a one-person source is smart-cropped exactly as before", async () => {
		const single = await render({ source: "one.mp4", end: 4, smartCrop: true, layout: "single" });
		const auto = await render({ source: "one.mp4", end: 4, smartCrop: true, layout: "auto" });
		expect(single.result.framing).toBe("smart-crop");
		expect(auto.result.framing).toBe("smart-crop");
		expect(md5(auto.video)).toBe(md5(single.video));
		console.info(
			`one face: smart crop ${single.seconds.toFixed(1)} s, auto ${auto.seconds.toFixed(1)} s (4 s clip)`,
		);
	});

	it("with smart crop off, one face stays centred and a faceless source too", async () => {
		for (const source of ["one.mp4", "plain.mp4"]) {
			const single = await render({ source, end: 2, layout: "single" });
			const auto = await render({ source, end: 2, layout: "auto" });
			expect(auto.result.framing).toBe("centre");
			expect(md5(auto.video), source).toBe(md5(single.video));
		}
	});

	it("an explicit follow-speaker follows the one face there is", async () => {
		const { result } = await render({ source: "one.mp4", end: 2, layout: "follow-speaker" });
		expect(result.framing).toBe("smart-crop");
	});
});
