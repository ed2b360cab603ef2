/**
 * Makes a sample "talk" video offline: ffmpeg lavfi visuals + speech from ffmpeg's flite source
 * (voice slt, the one pocketsphinx recognises best), one sentence at a time with a pause after
 * each, so sentence boundaries are real pauses as in a person's talk.
 *
 * CLI: `node scripts/sample-video.ts --out talk.mp4 [--seconds 60] [--size 640x360]`
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	renameSync,
	rmSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { escapeFilterValue } from "../containers/render/src/ffmpeg/clip-args.ts";
import { TALK_SCRIPT } from "./talk-script.ts";

export { TALK_SCRIPT };

export const PAUSE_SECONDS = 0.8;

export interface TalkVideoOptions {
	out: string;
	seconds: number;
	width?: number;
	height?: number;
	/** Sentences to speak, looped until `seconds` is filled. */
	script?: string[];
	/** ffmpeg lavfi source for the picture. */
	visual?: string;
	/** x264 preset (ultrafast for big test sources). */
	preset?: string;
	/** A face picture that drifts left and right across the frame (a presenter walking): what smart crop follows. */
	speaker?: string;
	/**
	 * Said in one breath: the script spoken once as one text without punctuation, no pause between
	 * sentences (a fast talker, as the local recognizer then hears one long utterance).
	 */
	continuous?: boolean;
}

/** The public-domain face used as a talking-head stand-in (see containers/render/test/fixtures/README.md). */
export const SPEAKER_FACE = join(import.meta.dirname, "..", "containers", "render", "test", "fixtures", "face.png");

export function makeTalkVideo(options: TalkVideoOptions): void {
	const { out, seconds, width = 640, height = 360, script = TALK_SCRIPT } = options;
	const dir = mkdtempSync(join(tmpdir(), "clipforge-sample-"));
	try {
		// About 3 s per sentence with its pause: enough inputs to fill the duration. Said in one
		// breath, the whole script is one input, its stops taken out (flite pauses at them).
		const lines = options.continuous ? [script.join(" ").replace(/[.,!?;:]/g, "")] : script;
		const count = options.continuous ? 1 : Math.max(1, Math.ceil(seconds / 2.5));
		const pause = options.continuous ? 0 : PAUSE_SECONDS;
		const inputs: string[] = [];
		const chains: string[] = [];
		for (let i = 0; i < count; i++) {
			const file = join(dir, `s${i}.txt`);
			writeFileSync(file, lines[i % lines.length]!);
			inputs.push("-f", "lavfi", "-i", `flite=textfile=${escapeFilterValue(file)}:voice=slt`);
			chains.push(`[${i + 2}:a]aresample=48000,apad=pad_dur=${pause}[a${i}]`);
		}
		const visual = options.visual ?? `testsrc2=size=${width}x${height}:rate=25`;
		const face = Math.round((height * 0.5) / 2) * 2;
		const picture = options.speaker
			? `[1:v]scale=${face}:${face}[face];[0:v][face]overlay=x='(W-w)*(0.5+0.4*sin(2*PI*t/20))':y=(H-h)*0.35:shortest=1[v]`
			: "[0:v]null[v]";
		const graph = `${picture};${chains.join(";")};${Array.from({ length: count }, (_, i) => `[a${i}]`).join("")}concat=n=${count}:v=0:a=1[speech]`;
		// Input 1 is the speaker's face, or a 1-frame placeholder so speech inputs keep their numbers.
		const faceInput = options.speaker
			? ["-loop", "1", "-i", options.speaker]
			: ["-f", "lavfi", "-i", "color=s=2x2:d=0.04"];
		const args = [
			...["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", visual, ...faceInput, ...inputs],
			...["-filter_complex", graph, "-map", "[v]", "-map", "[speech]", "-t", String(seconds)],
			...talkEncodeArgs(options.preset ?? "veryfast"),
			out,
		];
		const result = spawnSync("ffmpeg", args, { stdio: ["ignore", "inherit", "inherit"] });
		if (result.status !== 0) throw new Error(`ffmpeg failed making ${out} (exit ${result.status})`);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/**
 * `makeTalkVideo` for tests: the same options make the same file, so it is made once per machine
 * (both end-to-end shards and every file share it; speech synthesis and the encode were a tenth of
 * the suite's CPU) and copied to `out`. Test media default to x264's ultrafast: read by tests, never
 * watched. The key covers this file's code, the talk script and the face picture, so a change to
 * any of them makes new media.
 */
export function cachedTalkVideo(options: TalkVideoOptions, cacheDir = join(tmpdir(), "clipforge-talk-videos")): void {
	const { out, ...spec } = { preset: "ultrafast", ...options };
	const key = createHash("sha256")
		.update(JSON.stringify(spec))
		.update(readFileSync(fileURLToPath(import.meta.url)))
		.update(JSON.stringify(spec.script ?? TALK_SCRIPT))
		.update(spec.speaker ? readFileSync(spec.speaker) : "")
		.digest("hex")
		.slice(0, 24);
	const file = join(cacheDir, `${key}.mp4`);
	if (!existsSync(file)) {
		mkdirSync(cacheDir, { recursive: true });
		// Made beside its final name and renamed: a shard making the same file at once, or an
		// interrupted run, never leaves a half-written one under the key.
		const partial = join(cacheDir, `.${key}.${process.pid}.part.mp4`);
		makeTalkVideo({ ...spec, out: partial });
		renameSync(partial, file);
	}
	copyFileSync(file, out);
}

/** A small, seekable H.264/AAC file (keyframe every 2 s, mono speech), quick to make and to download. */
function talkEncodeArgs(preset: string): string[] {
	const video = ["-c:v", "libx264", "-preset", preset, "-crf", "28", "-pix_fmt", "yuv420p", "-g", "50"];
	const audio = ["-c:a", "aac", "-b:a", "96k", "-ac", "1"];
	return [...video, ...audio, "-movflags", "+faststart"];
}

/**
 * `input` played `loops` more times and cut to `seconds`, by stream copy (seconds, not minutes, to
 * build a long source from a short one). `extra`: output options before the file.
 */
export function loopVideo(input: string, loops: number, seconds: number, out: string, extra: string[] = []): void {
	const quiet = ["-hide_banner", "-loglevel", "error", "-y"];
	execFileSync("ffmpeg", [
		...quiet,
		"-stream_loop",
		String(loops),
		"-i",
		input,
		"-t",
		String(seconds),
		"-c",
		"copy",
		...extra,
		out,
	]);
}

/** The file name of the sample that `make demo` submits and `make up` serves. */
export const DEMO_SAMPLE = "talk-60s-speaker.mp4";

/**
 * The demo's 60 s talk (a face drifting over a slow gradient, flite speech) in `dir`, made once:
 * later calls find the file and return at once.
 */
export function ensureDemoSample(dir: string, onMake?: () => void): string {
	const file = join(dir, DEMO_SAMPLE);
	if (existsSync(file)) return file;
	onMake?.();
	mkdirSync(dir, { recursive: true });
	// Made beside its final name and renamed, so an interrupted run never leaves a half-written sample behind.
	const partial = join(dir, `.${DEMO_SAMPLE}.part.mp4`);
	makeTalkVideo({
		out: partial,
		seconds: 60,
		width: 1280,
		height: 720,
		visual: "gradients=s=1280x720:speed=0.01:rate=25:c0=0x1d2671:c1=0x0f9b8e",
		speaker: SPEAKER_FACE,
		// 30 s of CPU instead of 55 s (20 s instead of 34 s on a newcomer's first `make demo`), for a
		// file 1.4x larger that looks the same at CRF 28 (smooth gradients and one face).
		preset: "ultrafast",
	});
	renameSync(partial, file);
	return file;
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const { values } = parseArgs({
		options: {
			out: { type: "string" },
			seconds: { type: "string", default: "60" },
			size: { type: "string", default: "640x360" },
		},
	});
	if (!values.out) {
		console.error("usage: node scripts/sample-video.ts --out talk.mp4 [--seconds 60] [--size 640x360]");
		process.exit(2);
	}
	const [width, height] = values.size.split("x").map(Number);
	makeTalkVideo({ out: values.out, seconds: Number(values.seconds), width, height });
	console.log(values.out);
}
