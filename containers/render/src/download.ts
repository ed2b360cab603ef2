import { readdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import type { DownloadResult, OnProgress, SourceLimits } from "@clipforge/contract";
import { assertDownloadMatches, formatBytes, mediaFacts } from "./media-limits.ts";
import { ytDlpError } from "./probe.ts";
import { ProcessError, runProcess } from "./run-process.ts";
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
 * The video's downloaded source on this instance when it is there (only a complete, checked
 * download has that name), else `url` (its copy in R2). Jobs that only read the source (audio,
 * loudness) start from the local file while the upload to R2 is still running.
 */
export async function downloadedOrUrl(videoId: string, url: string): Promise<string> {
	const local = await sourcePath(videoId);
	return (await fileSize(local)) ? local : url;
}

export interface DownloadSpec {
	videoId: string;
	url: string;
	limits: SourceLimits;
	/** The probe's duration (what was charged), or null to skip that check. */
	expectedDuration: number | null;
}

/**
 * Downloads the best ≤1080p rendition within the limits into the video's folder as MP4, and keeps
 * it only if ffprobe finds what was probed: a video stream, a picture and a size within the
 * limits, the charged duration (media-limits.ts). Idempotent: a finished (checked) file is reused,
 * a partial one is written to a temporary name first and only renamed when complete and checked.
 */
export async function downloadSource(spec: DownloadSpec, onProgress: OnProgress, signal?: AbortSignal): Promise<DownloadResult> {
	const target = await sourcePath(spec.videoId);
	const existing = await fileSize(target);
	if (existing) {
		onProgress(1, "already downloaded");
		return { bytes: existing };
	}
	const checkedUrl = await resolveSource(spec.url);
	const dir = await videoDir(spec.videoId);
	const downloaded = join(dir, "download.mp4");
	const tooLarge = tooLargeMessage(spec.limits.maxBytes);
	// yt-dlp stops by itself when the size is announced; a stream that does not say is cut here.
	const overLimit = new AbortController();
	let refusedForSize = false;
	try {
		await runProcess(
			tools.ytDlp,
			ytDlpDownloadArgs({
				url: checkedUrl,
				limits: spec.limits,
				outputTemplate: join(dir, "download.%(ext)s"),
				progressTemplate: `${PROGRESS_PREFIX}%(progress.downloaded_bytes)s %(progress.total_bytes)s %(progress.total_bytes_estimate)s`,
			}),
			{
				timeoutMs: DOWNLOAD_TIMEOUT_MS,
				signal: signal ? AbortSignal.any([signal, overLimit.signal]) : overLimit.signal,
				collectStdout: false,
				onStdoutLine: (line) => {
					if (line.includes("larger than max-filesize")) refusedForSize = true;
					const bytes = downloadedBytes(line);
					if (bytes !== null && bytes > spec.limits.maxBytes) {
						refusedForSize = true;
						overLimit.abort();
					}
					const fraction = parseYtDlpProgress(line);
					if (fraction !== null) onProgress(fraction);
				},
			},
		);
	} catch (error) {
		if (refusedForSize && !signal?.aborted) {
			await removePartials(dir);
			throw tooLarge;
		}
		if (error instanceof ProcessError && error.reason === "exit" && /Requested format is not available/i.test(error.stderrTail)) {
			throw new TierError("unsupported_source", "The source has no rendition within the size limits (1080p and the plan's file size).", false, 422);
		}
		throw ytDlpError(error);
	}
	const bytes = await fileSize(downloaded);
	if (!bytes) {
		await removePartials(dir);
		if (refusedForSize) throw tooLarge;
		throw new TierError("unsupported_source", "The download produced no MP4 file.", false, 422);
	}
	try {
		assertDownloadMatches(await mediaFacts(downloaded, spec.limits.maxPixels, signal), spec.limits, spec.expectedDuration);
	} catch (error) {
		await rm(downloaded, { force: true });
		throw error;
	}
	await rename(downloaded, target);
	onProgress(1);
	return { bytes };
}

function tooLargeMessage(maxBytes: number): TierError {
	return new TierError("unsupported_source", `The video file is larger than the ${formatBytes(maxBytes)} limit.`, false, 422);
}

/** yt-dlp's temporary files of a cut download (`download.mp4.part`, `download.f137.mp4`, …). */
async function removePartials(dir: string): Promise<void> {
	const names = await readdir(dir).catch(() => [] as string[]);
	await Promise.all(names.filter((n) => n.startsWith("download.")).map((n) => rm(join(dir, n), { force: true })));
}

/** `cfprogress <downloaded> …` → bytes downloaded so far, or null. */
function downloadedBytes(line: string): number | null {
	if (!line.startsWith(PROGRESS_PREFIX)) return null;
	const done = Number(line.slice(PROGRESS_PREFIX.length).split(" ")[0]);
	return Number.isFinite(done) ? done : null;
}

/** `cfprogress <downloaded> <total|NA> <estimate|NA>` → 0..1, or null when the total is unknown. */
export function parseYtDlpProgress(line: string): number | null {
	if (!line.startsWith(PROGRESS_PREFIX)) return null;
	const [done, total, estimate] = line.slice(PROGRESS_PREFIX.length).split(" ").map(Number);
	const whole = Number.isFinite(total) && total ? total : estimate;
	if (!done || !whole || !Number.isFinite(done) || !Number.isFinite(whole)) return null;
	return Math.min(1, done / whole);
}
