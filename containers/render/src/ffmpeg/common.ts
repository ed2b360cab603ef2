/**
 * What every ffmpeg argument list of the tier shares: the quiet, prompt-free flags with progress on
 * stdout, how a stored source is opened, and how seconds are written.
 */
import { UPLOAD_FORMATS } from "../egress/args.ts";

/** Flags every ffmpeg run shares: no prompts, quiet logs, machine-readable progress on stdout. */
export const COMMON = ["-hide_banner", "-nostdin", "-y", "-loglevel", "error", "-progress", "pipe:1", "-nostats"];

/**
 * The options of a stored source's input (a downloaded or uploaded video, read back from R2): only
 * the upload formats (the probe and the download's check held it to them), and reconnects over
 * http (sources are read from signed URLs with range requests), on a lost connection and on a 5xx
 * answer too: the Worker answers 503 when an R2 read fails for a moment, and a render makes many
 * range reads of its source (at 2% per R2 read in the chaos soak, one render in a few met one).
 */
export function sourceInputOptions(url: string): string[] {
	const formats = ["-format_whitelist", UPLOAD_FORMATS];
	return /^https?:/.test(url)
		? [
				...formats,
				...["-reconnect", "1", "-reconnect_on_network_error", "1", "-reconnect_on_http_error", "5xx"],
				...["-reconnect_delay_max", "5"],
			]
		: formats;
}

/** Seconds as ffmpeg reads them, to the millisecond. */
export function seconds(value: number): string {
	return value.toFixed(3);
}
