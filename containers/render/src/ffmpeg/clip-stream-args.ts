import { sourceInputOptions } from "./common.ts";

/**
 * The ffmpeg input half shared by the analyses that decode a stretch of the source to a pipe (face
 * scan, channel energy): quiet, no stdin, seek to `start`, read `duration` seconds, one stream.
 */
export function clipStreamInputArgs(sourceUrl: string, start: number, duration: number, stream: string): string[] {
	const quiet = ["-hide_banner", "-nostdin", "-loglevel", "error"];
	return [
		...quiet,
		...sourceInputOptions(sourceUrl),
		"-ss",
		start.toFixed(3),
		"-i",
		sourceUrl,
		"-t",
		duration.toFixed(3),
		"-map",
		stream,
	];
}
