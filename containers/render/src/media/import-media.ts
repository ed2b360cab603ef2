/**
 * A workspace's own media imported from a URL: a split-screen background video or a watermark
 * image, checked (through the source guard, its size read from its header first and held to the
 * limits) and normalised, within a pace that keeps a slow URL from holding the shared import
 * instance.
 */
import { join } from "node:path";
import { rm } from "node:fs/promises";
import {
	DEFAULT_BACKGROUND_LIMITS,
	DEFAULT_IMAGE_LIMITS,
	type ImportMediaRequest,
	type MediaFileResult,
	type OnProgress,
} from "@clipforge/contract";
import { ffmpegProgressReader } from "../ffmpeg/progress.ts";
import { holdPath } from "../runtime/job-context.ts";
import { ProcessError, runProcess } from "../runtime/run-process.ts";
import { TierError } from "../runtime/tier-error.ts";
import { tools } from "../runtime/tool-paths.ts";
import { putFile } from "../runtime/transfer.ts";
import { sharedDir } from "../runtime/workdir.ts";
import { fetchFailureIn } from "../source/errors.ts";
import { resolveSource } from "../source/guard.ts";
import { assertWithinLimits, mediaFacts } from "../source/media-limits.ts";
import { mediaDuration } from "../source/stored-media.ts";
import { BACKGROUND_ENCODE } from "./backgrounds.ts";

/**
 * How long an import of a user's URL may hold a job on the import instance every tenant shares
 * (issue 45, N3: 16 slow-drip URLs held it for ten minutes each). The whole import (its probe, its
 * fetch and decode) has a wall-clock budget; the input may not stall longer than `stallSeconds`;
 * and past `graceMs` a video must keep arriving at least at `minSpeed` × real time (its media clock,
 * which only advances as bytes arrive: the transfer rate a background needs), else it is stopped.
 */
export interface ImportPace {
	budgetMs: { image: number; video: number };
	/** ffprobe's look at the URL. */
	probeMs: number;
	stallSeconds: number;
	graceMs: number;
	minSpeed: number;
}

export const IMPORT_PACE: ImportPace = {
	budgetMs: { image: 60_000, video: 3 * 60_000 },
	probeMs: 20_000,
	stallSeconds: 15,
	graceMs: 20_000,
	minSpeed: 0.25,
};

/** How often the speed of a video import is checked. */
const PACE_CHECK_MS = 1_000;

/**
 * Runs the import's ffmpeg within the pace; any failure but a fetch failure becomes
 * `unsupported_source` (ffmpeg's own words would tell a refused connection from an HTTP error:
 * neither is passed on), a slow one says it was too slow.
 */
async function convertImported(
	args: string[],
	what: "image" | "video",
	media: { seconds: number; onProgress?: (fraction: number) => void },
	pace: ImportPace,
	signal: AbortSignal,
): Promise<void> {
	const quiet = ["-hide_banner", "-nostdin", "-y", "-loglevel", "error", "-progress", "pipe:1", "-nostats"];
	const started = Date.now();
	let mediaSeconds = 0;
	const tooSlow = new AbortController();
	const onStdoutLine =
		what === "video"
			? ffmpegProgressReader(media.seconds, (f) => {
					mediaSeconds = f * media.seconds;
					media.onProgress?.(f);
				})
			: undefined;
	const watch =
		what === "video"
			? setInterval(() => {
					const elapsed = Date.now() - started;
					if (elapsed > pace.graceMs && mediaSeconds < ((elapsed - pace.graceMs) / 1000) * pace.minSpeed)
						tooSlow.abort();
				}, PACE_CHECK_MS)
			: null;
	const options = {
		timeoutMs: pace.budgetMs[what],
		signal: AbortSignal.any([signal, tooSlow.signal]),
		collectStdout: false,
		onStdoutLine,
	};
	try {
		await runProcess(tools.ffmpeg, [...quiet, ...args], options);
	} catch (error) {
		const fetchFailure = error instanceof ProcessError ? fetchFailureIn(error.stderrTail) : null;
		if (tooSlow.signal.aborted || (error instanceof ProcessError && error.reason === "timeout"))
			throw new TierError(
				"unsupported_source",
				`The ${what} arrived too slowly to import (an import may take ${pace.budgetMs[what] / 1000} s and must keep arriving); host it where it downloads faster.`,
				false,
				422,
			);
		throw fetchFailure ?? new TierError("unsupported_source", `The ${what} could not be decoded.`, false, 422);
	} finally {
		if (watch) clearInterval(watch);
	}
}

/** Longest stretch of a user's background video kept: it loops under every clip. */
const IMPORTED_BACKGROUND_SECONDS = 60;

/**
 * Imports a user's background video (first 60 s, ≤ 1280 px high, no audio) or watermark image
 * (first frame as PNG, ≤ 512 px wide, alpha kept). Its size is read from its header first (ffprobe
 * under `-max_pixels`, so a 16000×16000 PNG is refused, not decoded into a gigabyte) and held to the
 * limits (pixels, bytes); ffmpeg decodes under the same `-max_pixels`. Anything ffmpeg cannot decode
 * as a picture is refused as `unsupported_source`.
 */
export async function importMedia(
	req: ImportMediaRequest,
	onProgress: OnProgress,
	signal: AbortSignal,
	pace: ImportPace = IMPORT_PACE,
): Promise<MediaFileResult> {
	const isImage = req.kind === "watermark";
	const limits = req.limits ?? (isImage ? DEFAULT_IMAGE_LIMITS : DEFAULT_BACKGROUND_LIMITS);
	const url = await resolveSource(req.url);
	const facts = await mediaFacts(url, limits.maxPixels, signal, pace.probeMs);
	if (!facts?.hasVideo || !facts.width || !facts.height)
		throw new TierError("unsupported_source", "The URL is not a picture or a video.", false, 422);
	assertWithinLimits(facts, limits, isImage ? "image" : "video");
	const name = `import-${Date.now()}-${Math.random().toString(36).slice(2)}.${isImage ? "png" : "mp4"}`;
	const path = holdPath(join(await sharedDir(), name));
	const seconds = Math.min(
		IMPORTED_BACKGROUND_SECONDS,
		Number.isFinite(facts.duration) && facts.duration > 0 ? facts.duration : IMPORTED_BACKGROUND_SECONDS,
	);
	const args = importArgs(url, path, { isImage, seconds, maxPixels: limits.maxPixels, pace });
	try {
		const media = { seconds, onProgress: (f: number) => onProgress(f * 0.8) };
		await convertImported(args, isImage ? "image" : "video", media, pace, signal);
		const bytes = await putFile(path, req.putUrl, isImage ? "image/png" : "video/mp4", undefined, signal);
		const size = await mediaFacts(path, limits.maxPixels, signal);
		onProgress(1);
		return {
			bytes,
			width: size?.width ?? 0,
			height: size?.height ?? 0,
			duration: isImage ? 0 : await mediaDuration(path, signal),
		};
	} finally {
		await rm(path, { force: true });
	}
}

/**
 * The conversion of an import: a watermark's first frame as PNG (≤ 512 px wide, alpha kept), or a
 * background's first `seconds` without sound (≤ 1280 px high), decoded under `-max_pixels`.
 */
function importArgs(
	url: string,
	path: string,
	what: { isImage: boolean; seconds: number; maxPixels: number; pace: ImportPace },
): string[] {
	// A read that stalls this long fails (microseconds): a URL that stops sending frees its job.
	const stall = ["-rw_timeout", String(what.pace.stallSeconds * 1_000_000)];
	const input = [...stall, "-max_pixels", String(what.maxPixels), "-i", url];
	if (what.isImage)
		return [...input, "-frames:v", "1", "-update", "1", "-vf", "scale='min(512,iw)':-2,format=rgba", path];
	const video = ["-t", String(what.seconds), "-an", "-map", "0:v:0", "-vf", "scale=-2:'min(1280,ih)'"];
	return [...input, ...video, ...BACKGROUND_ENCODE, path];
}
