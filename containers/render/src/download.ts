import { rename } from "node:fs/promises";
import { join } from "node:path";
import type { DownloadResult, OnProgress } from "@clipforge/contract";
import { ytDlpError } from "./probe.ts";
import { runProcess } from "./run-process.ts";
import { resolveSource } from "./source-guard.ts";
import { TierError } from "./tier-error.ts";
import { tools } from "./tool-paths.ts";
import { fileSize, videoDir } from "./workdir.ts";
import { ytDlpDownloadArgs } from "./yt-dlp-args.ts";

const DOWNLOAD_TIMEOUT_MS = 60 * 60_000;
const PROGRESS_PREFIX = "cfprogress ";

/** Path of a video's downloaded source inside the tier. */
export async function sourcePath(videoId: string): Promise<string> {
	return join(await videoDir(videoId), "source.mp4");
}

/**
 * Downloads the best ≤1080p rendition into the video's folder as MP4. Idempotent: a finished file is
 * reused, a partial one is written to a temporary name first and only renamed when complete.
 */
export async function downloadSource(
	videoId: string,
	url: string,
	onProgress: OnProgress,
	signal?: AbortSignal,
): Promise<DownloadResult> {
	const target = await sourcePath(videoId);
	const existing = await fileSize(target);
	if (existing) {
		onProgress(1, "already downloaded");
		return { bytes: existing };
	}
	const checkedUrl = await resolveSource(url);
	const dir = await videoDir(videoId);
	try {
		await runProcess(
			tools.ytDlp,
			ytDlpDownloadArgs({
				url: checkedUrl,
				outputTemplate: join(dir, "download.%(ext)s"),
				progressTemplate: `${PROGRESS_PREFIX}%(progress.downloaded_bytes)s %(progress.total_bytes)s %(progress.total_bytes_estimate)s`,
			}),
			{
				timeoutMs: DOWNLOAD_TIMEOUT_MS,
				signal,
				collectStdout: false,
				onStdoutLine: (line) => {
					const fraction = parseYtDlpProgress(line);
					if (fraction !== null) onProgress(fraction);
				},
			},
		);
	} catch (error) {
		throw ytDlpError(error);
	}
	const downloaded = join(dir, "download.mp4");
	const bytes = await fileSize(downloaded);
	if (!bytes) throw new TierError("unsupported_source", "The download produced no MP4 file.", false, 422);
	await rename(downloaded, target);
	onProgress(1);
	return { bytes };
}

/** `cfprogress <downloaded> <total|NA> <estimate|NA>` → 0..1, or null when the total is unknown. */
export function parseYtDlpProgress(line: string): number | null {
	if (!line.startsWith(PROGRESS_PREFIX)) return null;
	const [done, total, estimate] = line.slice(PROGRESS_PREFIX.length).split(" ").map(Number);
	const whole = Number.isFinite(total) && total ? total : estimate;
	if (!done || !whole || !Number.isFinite(done) || !Number.isFinite(whole)) return null;
	return Math.min(1, done / whole);
}
