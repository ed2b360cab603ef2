/**
 * The argument arrays of the tier's other ffmpeg and ffprobe runs over a source: audio chunks for
 * transcription, a time frame copied out, loudness, the quick reads of a stored file (picture size,
 * duration, streams), silencedetect, and pocketsphinx's WAV. Pure, like every builder of ffmpeg/.
 */
import { UPLOAD_FORMATS } from "../egress/args.ts";
import { COMMON, seconds, sourceInputOptions } from "./common.ts";

/** 16 kHz mono MP3 of one stretch of the source: small enough to send to Whisper, enough for ASR. */
export function extractAudioChunkArgs(
	sourceUrl: string,
	start: number,
	duration: number,
	outputPath: string,
): string[] {
	return [
		...COMMON,
		...sourceInputOptions(sourceUrl),
		"-ss",
		seconds(start),
		"-i",
		sourceUrl,
		"-t",
		seconds(duration),
		"-vn",
		"-ac",
		"1",
		"-ar",
		"16000",
		"-c:a",
		"libmp3lame",
		"-b:a",
		"48k",
		outputPath,
	];
}

/**
 * The stretch [start, start + duration) of a stored or downloaded source copied out without
 * re-encoding (the first video and audio streams only). Seeking before the input keeps the
 * keyframe before `start` as hidden pre-roll (an MP4 edit list), so the copy's time 0 is exactly
 * `start` of the input for every reader that honours edit lists (ffmpeg, browsers).
 */
export function frameCopyArgs(
	input: string,
	start: number,
	duration: number,
	outputPath: string,
	format: "mp4" | "matroska",
): string[] {
	return [
		...COMMON,
		...sourceInputOptions(input),
		...(start > 0 ? ["-ss", seconds(start)] : []),
		"-i",
		input,
		"-t",
		seconds(duration),
		"-map",
		"0:v:0",
		"-map",
		"0:a:0?",
		"-c",
		"copy",
		"-f",
		format,
		outputPath,
	];
}

/**
 * The picture size of a stored source (`width,height`), read before a render frames it: held to
 * the upload formats like every read of a stored source, so a file that is really a playlist opens
 * nothing past itself.
 */
export function frameSizeArgs(sourceUrl: string): string[] {
	return [
		"-v",
		"error",
		"-format_whitelist",
		UPLOAD_FORMATS,
		"-select_streams",
		"v:0",
		"-show_entries",
		"stream=width,height",
		"-of",
		"csv=p=0",
		sourceUrl,
	];
}

/** 16 kHz mono 16-bit WAV, the only input pocketsphinx_continuous reads. */
export function toPocketsphinxWavArgs(inputPath: string, outputPath: string): string[] {
	return [...COMMON, "-i", inputPath, "-vn", "-ac", "1", "-ar", "16000", "-c:a", "pcm_s16le", outputPath];
}

/**
 * What a file or URL holds: streams (type, size, duration) and the container's duration and size.
 * `-max_pixels` makes the decoder refuse a larger picture instead of decoding it (ffprobe decodes a
 * PNG's first frame to fill in its parameters: a 16000×16000 one would take 1 GB); ffprobe then
 * reports 0×0 and names the real size on stderr (see media-limits.ts).
 */
export function ffprobeArgs(url: string, maxPixels?: number, formats?: string): string[] {
	return [
		"-v",
		"error",
		...(maxPixels ? ["-max_pixels", String(maxPixels)] : []),
		...(formats ? ["-format_whitelist", formats] : []),
		"-show_entries",
		"format=duration,size:stream=codec_type,width,height,duration",
		"-of",
		"json",
		url,
	];
}

/**
 * Momentary loudness (EBU R128, 400 ms window, every 100 ms) printed to stdout as
 * `frame:N pts:P pts_time:T` / `lavfi.r128.M=V` line pairs. No -progress: stdout carries the data.
 */
export function loudnessArgs(sourceUrl: string, start = 0, end?: number): string[] {
	return [
		"-hide_banner",
		"-nostdin",
		"-loglevel",
		"error",
		...sourceInputOptions(sourceUrl),
		// Only the charged time frame: seek before the input (fast), stop at its end.
		...(start > 0 ? ["-ss", seconds(start)] : []),
		...(end !== undefined ? ["-t", seconds(end - start)] : []),
		"-i",
		sourceUrl,
		"-map",
		"0:a:0",
		"-af",
		"ebur128=metadata=1,ametadata=mode=print:key=lavfi.r128.M:file=-",
		"-f",
		"null",
		"-",
	];
}

/** A file's duration in seconds (`format=duration`), one number on stdout. */
export function durationArgs(path: string): string[] {
	return ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path];
}

/** The streams' types and frame rates, as JSON: what remove-silences needs of a source. */
export function streamInfoArgs(url: string): string[] {
	return ["-v", "error", "-show_entries", "stream=codec_type,r_frame_rate", "-of", "json", url];
}

/**
 * silencedetect over a stretch of the source's sound only (no video decode): quieter than the noise
 * level for at least minSeconds. Its `silence_start` / `silence_end` lines come on stderr (info
 * level, no -progress).
 */
export function silenceDetectArgs(
	url: string,
	start: number,
	duration: number,
	noise: string,
	minSeconds: number,
): string[] {
	return [
		"-hide_banner",
		"-nostdin",
		"-loglevel",
		"info",
		"-nostats",
		...sourceInputOptions(url),
		"-ss",
		start.toFixed(3),
		"-t",
		duration.toFixed(3),
		"-i",
		url,
		"-map",
		"0:a:0",
		"-vn",
		"-af",
		`silencedetect=noise=${noise}:d=${minSeconds}`,
		"-f",
		"null",
		"-",
	];
}
