import { readdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import type { DownloadResult, OnProgress, SourceFrame, SourceLimits } from "@clipforge/contract";
import {
	assertRoomFor,
	diskFullError,
	diskOf,
	limitWords,
	ranOutOfDisk,
	sourceLimitsOnDisk,
	type Disk,
} from "./disk-room.ts";
import { UPLOAD_FORMATS } from "../egress/args.ts";
import { assertDownloadMatches, mediaFacts } from "./media-limits.ts";
import { ytDlpError } from "./errors.ts";
import { ProcessError, runProcess } from "../runtime/run-process.ts";
import { copyFrame } from "./frame.ts";
import { resolveSource } from "./guard.ts";
import { TierError } from "../runtime/tier-error.ts";
import { tools, workRoot } from "../runtime/tool-paths.ts";
import { fileSize, videoDir } from "../runtime/workdir.ts";
import { ytDlpDownloadArgs } from "./yt-dlp-args.ts";

type DiskLimits = ReturnType<typeof sourceLimitsOnDisk>;

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
	/** The stretch the video was charged for: only it is kept (source/frame.ts). Null: the whole source. */
	frame?: SourceFrame | null;
	/** `url` is a stored upload: ffmpeg copies the frame out of it, yt-dlp never reads it. */
	upload?: boolean;
}

/**
 * Downloads the best ≤1080p rendition within the limits into the video's folder as MP4, and keeps
 * it only if ffprobe finds what was probed: a video stream, a picture and a size within the
 * limits, the charged duration (media-limits.ts). The size limit is lowered to what this
 * instance's disk can hold, and a download that would not fit next to other videos' files now is
 * refused as busy (disk-room.ts). Only `spec.frame` of it is kept (cut after the check, without
 * re-encoding); a stored upload is not downloaded but has its frame copied out (uploadFrame).
 * Idempotent: a finished (checked, cut) file is reused, a partial one is written to a temporary
 * name first and only renamed when complete and checked.
 */
export async function downloadSource(
	spec: DownloadSpec,
	onProgress: OnProgress,
	signal?: AbortSignal,
): Promise<DownloadResult> {
	const target = await sourcePath(spec.videoId);
	const existing = await fileSize(target);
	if (existing) {
		onProgress(1, "already downloaded");
		return { bytes: existing };
	}
	const dir = await videoDir(spec.videoId);
	const downloaded = join(dir, "download.mp4");
	const disk = await diskOf(workRoot);
	const limits = sourceLimitsOnDisk(spec.limits, disk);
	if (spec.upload) return uploadFrame(spec, limits, downloaded, target, onProgress, signal);
	const { refusedForSize } = await runYtDlp({ ...spec, limits }, disk, dir, onProgress, signal);
	const bytes = await fileSize(downloaded);
	if (!bytes) {
		await removePartials(dir);
		if (refusedForSize) throw tooLargeMessage(limitWords(limits));
		throw new TierError("unsupported_source", "The download produced no MP4 file.", false, 422);
	}
	try {
		// Held to the upload formats: every later read of the stored source (sourceInputOptions) is.
		const facts = await mediaFacts(downloaded, limits.maxPixels, signal, undefined, UPLOAD_FORMATS);
		assertDownloadMatches(facts, limits, spec.expectedDuration);
		if (spec.frame) await keepFrame(downloaded, spec.frame, join(dir, "download.frame.mp4"), signal);
	} catch (error) {
		await rm(downloaded, { force: true });
		throw error;
	}
	await rename(downloaded, target);
	onProgress(1);
	return { bytes: (await fileSize(target)) ?? bytes };
}

/** Replaces `path` by its `frame`, copied out through `scratch`. */
async function keepFrame(path: string, frame: SourceFrame, scratch: string, signal?: AbortSignal): Promise<void> {
	try {
		await copyFrame(path, frame, scratch, signal);
		await rename(scratch, path);
	} finally {
		await rm(scratch, { force: true });
	}
}

/**
 * A stored upload (the Worker's signed URL of it): its frame is copied out by ffmpeg alone (under
 * the upload formats, as every read of a stored source), then checked as a download is, but
 * against no probed duration (the upload itself was probed).
 */
async function uploadFrame(
	spec: DownloadSpec,
	limits: DiskLimits,
	downloaded: string,
	target: string,
	onProgress: OnProgress,
	signal?: AbortSignal,
): Promise<DownloadResult> {
	// A whole upload is already stored where the Worker wants it: only a frame of one is ever asked for.
	if (!spec.frame) throw new TierError("invalid_request", "An upload is copied only to a time frame.", false, 400);
	try {
		await copyFrame(spec.url, spec.frame, downloaded, signal);
		const facts = await mediaFacts(downloaded, limits.maxPixels, signal, undefined, UPLOAD_FORMATS);
		assertDownloadMatches(facts, limits, null);
	} catch (error) {
		await rm(downloaded, { force: true });
		throw error;
	}
	await rename(downloaded, target);
	onProgress(1);
	return { bytes: (await fileSize(target)) ?? 0 };
}

/**
 * yt-dlp into `dir/download.*`, reporting progress. It stops by itself when a size over the limit is
 * announced; a stream that does not say is cut here once it passes the limit (`refusedForSize`), and
 * one whose announced size does not fit in the disk's free room now is cut as busy.
 */
async function runYtDlp(
	spec: DownloadSpec & { limits: DiskLimits },
	disk: Disk,
	dir: string,
	onProgress: OnProgress,
	signal?: AbortSignal,
): Promise<{ refusedForSize: boolean }> {
	const checkedUrl = await resolveSource(spec.url);
	const overLimit = new AbortController();
	let refusedForSize = false;
	let refusedForRoom: TierError | null = null;
	const onStdoutLine = (line: string) => {
		if (line.includes("larger than max-filesize")) refusedForSize = true;
		const bytes = downloadedBytes(line);
		if (bytes !== null && bytes > spec.limits.maxBytes) {
			refusedForSize = true;
			overLimit.abort();
		}
		refusedForRoom ??= roomRefusal(announcedBytes(line), disk);
		if (refusedForRoom) overLimit.abort();
		const fraction = parseYtDlpProgress(line);
		if (fraction !== null) onProgress(fraction);
	};
	const args = ytDlpDownloadArgs({
		url: checkedUrl,
		limits: spec.limits,
		outputTemplate: join(dir, "download.%(ext)s"),
		progressTemplate: `${PROGRESS_PREFIX}%(progress.downloaded_bytes)s %(progress.total_bytes)s %(progress.total_bytes_estimate)s`,
	});
	const stop = signal ? AbortSignal.any([signal, overLimit.signal]) : overLimit.signal;
	try {
		await runProcess(tools.ytDlp, args, {
			timeoutMs: DOWNLOAD_TIMEOUT_MS,
			signal: stop,
			collectStdout: false,
			onStdoutLine,
		});
	} catch (error) {
		await removePartials(dir);
		throw downloadFailure(error, {
			refusedForRoom,
			refusedForSize: refusedForSize && !signal?.aborted,
			limits: spec.limits,
			cancelled: !!signal?.aborted,
		});
	}
	return { refusedForSize };
}

/** Once the size is known, it must fit in what is free now; null while it fits or is unknown. */
function roomRefusal(total: number | null, disk: Disk): TierError | null {
	if (total === null) return null;
	try {
		assertRoomFor(total, disk);
		return null;
	} catch (error) {
		return error as TierError;
	}
}

/** What a failed yt-dlp run means to the caller, most specific first. */
function downloadFailure(
	error: unknown,
	why: { refusedForRoom: TierError | null; refusedForSize: boolean; limits: DiskLimits; cancelled: boolean },
): unknown {
	if (why.refusedForRoom && !why.cancelled) return why.refusedForRoom;
	if (why.refusedForSize) return tooLargeMessage(limitWords(why.limits));
	if (error instanceof ProcessError && ranOutOfDisk(error.stderrTail)) return diskFullError();
	if (
		error instanceof ProcessError &&
		error.reason === "exit" &&
		/Requested format is not available/i.test(error.stderrTail)
	) {
		return new TierError(
			"unsupported_source",
			"The source has no rendition within the size limits (1080p and the plan's file size).",
			false,
			422,
		);
	}
	return ytDlpError(error);
}

function tooLargeMessage(limit: string): TierError {
	return new TierError("unsupported_source", `The video file is larger than ${limit}.`, false, 422);
}

/** `cfprogress <downloaded> <total|NA> <estimate|NA>` → the total (or estimate) once announced, or null. */
function announcedBytes(line: string): number | null {
	if (!line.startsWith(PROGRESS_PREFIX)) return null;
	const [, total, estimate] = line.slice(PROGRESS_PREFIX.length).split(" ").map(Number);
	const known = [total, estimate].find((n) => n !== undefined && Number.isFinite(n) && n > 0);
	return known ?? null;
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
