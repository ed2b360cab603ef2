/**
 * Pure builders of yt-dlp argument arrays (tested in test/yt-dlp-args.test.ts without running it).
 * Every call starts with `--ignore-config`: a configuration file on the machine (system-wide,
 * the user's, or a `yt-dlp.conf` beside the binary or in the working folder) could otherwise add
 * options such as `--exec`, a proxy or another output folder. The URL always comes after `--`, so it
 * is never read as an option.
 */

import type { SourceLimits } from "@clipforge/contract";

/** First in every yt-dlp run. */
export const YT_DLP_BASE = ["--ignore-config", "--no-warnings", "--no-playlist"] as const;

/** `yt-dlp -J`: the metadata as JSON, nothing downloaded. */
export function ytDlpProbeArgs(url: string): string[] {
	return [...YT_DLP_BASE, "-J", "--socket-timeout", "10", "--", url];
}

/**
 * One subtitle track of the source, nothing else downloaded, converted to WebVTT when the site gives
 * another format. The language is matched whole (yt-dlp reads `--sub-langs` as a regular
 * expression: "en" would also take "en-US" and "en-GB").
 */
export function ytDlpSubtitlesArgs(options: {
	url: string;
	lang: string;
	automatic: boolean;
	outputTemplate: string;
}): string[] {
	const exact = `^${options.lang.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`;
	return [
		...YT_DLP_BASE,
		"--skip-download",
		options.automatic ? "--write-auto-subs" : "--write-subs",
		"--sub-langs",
		exact,
		"--sub-format",
		"vtt/srt/best",
		"--convert-subs",
		"vtt",
		"--socket-timeout",
		"20",
		"-o",
		options.outputTemplate,
		"--",
		options.url,
	];
}

export interface YtDlpDownloadOptions {
	url: string;
	/** What may be downloaded: picks the format (media-limits.ts ytDlpFormat) and caps the file size. */
	limits: SourceLimits;
	/** `-o` template, e.g. `<dir>/download.%(ext)s`. */
	outputTemplate: string;
	/** `--progress-template` for the download lines. */
	progressTemplate: string;
}

/**
 * Downloads the best ≤ 1080p rendition within the limits as MP4. Not `--quiet`: yt-dlp says
 * "File is larger than max-filesize" only on stdout, and exits 0 having written nothing.
 */
export function ytDlpDownloadArgs(options: YtDlpDownloadOptions): string[] {
	return [
		...YT_DLP_BASE,
		"--progress",
		"--newline",
		"--socket-timeout",
		"20",
		"--retries",
		"3",
		"--progress-template",
		`download:${options.progressTemplate}`,
		"-f",
		ytDlpFormat(options.limits),
		"--max-filesize",
		String(options.limits.maxBytes),
		"--merge-output-format",
		"mp4",
		"--remux-video",
		"mp4",
		"-o",
		options.outputTemplate,
		"--",
		options.url,
	];
}

/**
 * yt-dlp's format choice under the limits: the best rendition of known size up to 1080p (or the
 * limit's own height, if lower), landscape then portrait, whose file size, where known, is within
 * `maxBytes`; only when no such rendition exists, one whose dimensions are unknown (a direct file).
 * Such a download is checked with ffprobe afterwards (assertDownloadMatches), and a direct file was
 * already checked at the probe. Never a rendition known to be larger.
 * @example ytDlpFormat({ maxPixels: 1280 * 720, maxBytes: 1e9 }) // "bv*[height<=720][width<=1280]…"
 */
export function ytDlpFormat(limits: SourceLimits): string {
	const height = Math.min(1080, Math.floor(Math.sqrt((limits.maxPixels * 9) / 16)));
	const width = Math.floor((height * 16) / 9);
	const size = `[filesize<=?${limits.maxBytes}][filesize_approx<=?${limits.maxBytes}]`;
	const landscape = `[height<=${height}][width<=${width}]${size}`;
	const portrait = `[height<=${width}][width<=${height}]${size}`;
	const unknown = `[height<=?${height}][width<=?${width}]${size}`;
	return [`bv*${landscape}+ba`, `b${landscape}`, `bv*${portrait}+ba`, `b${portrait}`, `b${unknown}`].join("/");
}
