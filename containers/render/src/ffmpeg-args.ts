/**
 * Pure builders of ffmpeg/ffprobe argument arrays. Nothing here runs a process, so every choice can
 * be unit-tested without media (test/ffmpeg-args.test.ts). Comments say why each flag is there.
 */
import { OUTPUT_SIZE, type AspectRatio } from "./contract.ts";

export const DEFAULT_FONT_FILE = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";

/** Flags every ffmpeg run shares: no prompts, quiet logs, machine-readable progress on stdout. */
const COMMON = ["-hide_banner", "-nostdin", "-y", "-loglevel", "error", "-progress", "pipe:1", "-nostats"];

/** Reconnect on dropped HTTP reads: sources are read from signed URLs with range requests. */
function inputOptions(url: string): string[] {
	return /^https?:/.test(url) ? ["-reconnect", "1", "-reconnect_on_network_error", "1", "-reconnect_delay_max", "5"] : [];
}

/**
 * Escapes a value for a filter option inside a filtergraph: first the option level (`\ ' :`),
 * then the graph level (`\ ' [ ] , ;`), as ffmpeg-filters(1) "Notes on filtergraph escaping" says.
 * @example escapeFilterValue("C:\\fonts\\a.ttf") // "C\\\\:\\\\\\\\fonts..." (safe inside drawtext=fontfile=...)
 */
export function escapeFilterValue(value: string): string {
	const optionLevel = value.replace(/[\\':]/g, (c) => `\\${c}`);
	return optionLevel.replace(/[\\'[\],;]/g, (c) => `\\${c}`);
}

/**
 * Centre crop to the target aspect ratio, then scale to the output size. The crop box is the
 * largest one of that ratio that fits the source, so nothing is letterboxed and nothing stretched.
 */
export function reframeFilter(aspectRatio: AspectRatio): string {
	const { width, height } = OUTPUT_SIZE[aspectRatio];
	const cropW = `trunc(min(iw\\,ih*${width}/${height})/2)*2`;
	const cropH = `trunc(min(ih\\,iw*${height}/${width})/2)*2`;
	return [
		`crop=w=${cropW}:h=${cropH}:x=(iw-ow)/2:y=(ih-oh)/2`,
		`scale=${width}:${height}:flags=lanczos`,
		"setsar=1",
	].join(",");
}

/** A small translucent mark in the bottom-right corner; text comes from a file, never inline. */
export function watermarkFilter(textFile: string, fontFile = DEFAULT_FONT_FILE): string {
	return [
		`drawtext=fontfile=${escapeFilterValue(fontFile)}`,
		`textfile=${escapeFilterValue(textFile)}`,
		"fontsize=h*0.028",
		"fontcolor=white@0.75",
		"shadowcolor=black@0.6:shadowx=2:shadowy=2",
		"x=w-tw-h*0.03:y=h-th-h*0.03",
	].join(":");
}

export interface RenderClipArgs {
	sourceUrl: string;
	start: number;
	end: number;
	aspectRatio: AspectRatio;
	watermarkTextFile: string | null;
	outputPath: string;
}

/** One encode from the source (no stacked re-encodes): cut, reframe, optional mark, H.264/AAC. */
export function renderClipArgs(spec: RenderClipArgs): string[] {
	const duration = spec.end - spec.start;
	const filters = [reframeFilter(spec.aspectRatio), spec.watermarkTextFile ? watermarkFilter(spec.watermarkTextFile) : null]
		.filter((f): f is string => f !== null)
		.join(",");
	return [
		...COMMON,
		...inputOptions(spec.sourceUrl),
		// -ss before -i seeks the input (fast, reads little over HTTP) and is frame-accurate when transcoding.
		"-ss", seconds(spec.start),
		"-i", spec.sourceUrl,
		"-t", seconds(duration),
		"-map", "0:v:0",
		// `?`: a source without audio still renders (silently) instead of failing.
		"-map", "0:a:0?",
		"-vf", filters,
		"-c:v", "libx264", "-preset", "veryfast", "-crf", "21", "-pix_fmt", "yuv420p",
		"-c:a", "aac", "-b:a", "128k", "-ar", "48000",
		// moov atom first: the clip starts playing in a browser before it is fully downloaded.
		"-movflags", "+faststart",
		spec.outputPath,
	];
}

/** A JPEG of the reframed clip a quarter of the way in (past a fade-in, inside the moment). */
export function thumbnailArgs(spec: Omit<RenderClipArgs, "watermarkTextFile">): string[] {
	const at = spec.start + Math.min(2, (spec.end - spec.start) * 0.25);
	return [
		...COMMON,
		...inputOptions(spec.sourceUrl),
		"-ss", seconds(at),
		"-i", spec.sourceUrl,
		"-frames:v", "1",
		"-update", "1",
		"-vf", reframeFilter(spec.aspectRatio),
		"-q:v", "3",
		spec.outputPath,
	];
}

/** 16 kHz mono MP3 of one stretch of the source: small enough to send to Whisper, enough for ASR. */
export function extractAudioChunkArgs(sourceUrl: string, start: number, duration: number, outputPath: string): string[] {
	return [
		...COMMON,
		...inputOptions(sourceUrl),
		"-ss", seconds(start),
		"-i", sourceUrl,
		"-t", seconds(duration),
		"-vn", "-ac", "1", "-ar", "16000",
		"-c:a", "libmp3lame", "-b:a", "48k",
		outputPath,
	];
}

/** 16 kHz mono 16-bit WAV, the only input pocketsphinx_continuous reads. */
export function toPocketsphinxWavArgs(inputPath: string, outputPath: string): string[] {
	return [...COMMON, "-i", inputPath, "-vn", "-ac", "1", "-ar", "16000", "-c:a", "pcm_s16le", outputPath];
}

export function ffprobeArgs(url: string): string[] {
	return [
		"-v", "error",
		"-show_entries", "format=duration:stream=codec_type,width,height,duration",
		"-of", "json",
		url,
	];
}

function seconds(value: number): string {
	return value.toFixed(3);
}

/**
 * Momentary loudness (EBU R128, 400 ms window, every 100 ms) printed to stdout as
 * `frame:N pts:P pts_time:T` / `lavfi.r128.M=V` line pairs. No -progress: stdout carries the data.
 */
export function loudnessArgs(sourceUrl: string): string[] {
	return [
		"-hide_banner", "-nostdin", "-loglevel", "error",
		...inputOptions(sourceUrl),
		"-i", sourceUrl,
		"-map", "0:a:0",
		"-af", "ebur128=metadata=1,ametadata=mode=print:key=lavfi.r128.M:file=-",
		"-f", "null", "-",
	];
}
