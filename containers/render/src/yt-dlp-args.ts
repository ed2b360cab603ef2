/**
 * Pure builders of yt-dlp argument arrays (tested in test/yt-dlp-args.test.ts without running it).
 * Every call starts with `--ignore-config`: a configuration file on the machine (system-wide,
 * the user's, or a `yt-dlp.conf` beside the binary or in the working folder) could otherwise add
 * options such as `--exec`, a proxy or another output folder. The URL always comes after `--`, so it
 * is never read as an option.
 */

/** First in every yt-dlp run. */
export const YT_DLP_BASE = ["--ignore-config", "--no-warnings", "--no-playlist"] as const;

/** `yt-dlp -J`: the metadata as JSON, nothing downloaded. */
export function ytDlpProbeArgs(url: string): string[] {
	return [...YT_DLP_BASE, "-J", "--socket-timeout", "10", "--", url];
}

export interface YtDlpDownloadOptions {
	url: string;
	/** `-o` template, e.g. `<dir>/download.%(ext)s`. */
	outputTemplate: string;
	/** `--progress-template` for the download lines. */
	progressTemplate: string;
}

/** Downloads the best ≤ 1080p rendition as MP4. */
export function ytDlpDownloadArgs(options: YtDlpDownloadOptions): string[] {
	return [
		...YT_DLP_BASE,
		"--quiet", "--progress", "--newline",
		"--socket-timeout", "20", "--retries", "3",
		"--progress-template", `download:${options.progressTemplate}`,
		"-f", "bv*[height<=1080]+ba/b[height<=1080]/b",
		"--merge-output-format", "mp4",
		"--remux-video", "mp4",
		"-o", options.outputTemplate,
		"--",
		options.url,
	];
}
