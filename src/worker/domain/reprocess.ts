/**
 * Reprocessing a finished video with new settings: analyzing and generating_clips run again from
 * the stored source and transcript (no download, no transcription). What it costs, and which
 * settings it can change, as rules without I/O.
 *
 * Charging: the first reprocess of each video is free; each later one costs half the minutes of
 * its time frame, rounded up (at least 1). A failed reprocess is refunded in full and does not use
 * up the free one, unless the user caused the failure (USER_CAUSED_FAILURES): then its charge stays
 * and it counts, as a video's would. The video's own charge is never touched by a reprocess.
 */
import { z } from "@hono/zod-openapi";
import { frameOf, VideoConfigInput, type VideoConfig } from "./video-config";
import type { VideoStatus } from "@clipforge/domain";

/** Reprocesses of one video that cost nothing. */
export const FREE_REPROCESSES_PER_VIDEO = 1;
/** Later reprocesses cost this share of the time frame's minutes (rounded up, at least 1). */
export const REPROCESS_MINUTES_SHARE = 0.5;

/**
 * @param earlier reprocesses of the video that count (db/reprocesses.ts countsTowardAllowance)
 * @example reprocessCost(0, config, 1800) // 0: the first one is free
 * @example reprocessCost(1, config, 1800) // 15: half of a 30-minute frame
 */
export function reprocessCost(
	earlier: number,
	config: Pick<VideoConfig, "timeframeStart" | "timeframeEnd">,
	duration: number,
): number {
	if (earlier < FREE_REPROCESSES_PER_VIDEO) return 0;
	const frame = frameOf(config, duration);
	return Math.max(1, Math.ceil(((frame.end - frame.start) / 60) * REPROCESS_MINUTES_SHARE));
}

/** A video can be reprocessed once its run ended: completed, or failed (then only if its files were kept). */
export const REPROCESSABLE_STATUSES = ["completed", "failed"] as const satisfies readonly VideoStatus[];

/**
 * What a reprocess cannot change, because it reuses the transcript: the language it was made in
 * and the stretch of the video it covers. Returns each refused field as the API's `details`.
 */
export function transcriptConflicts(
	config: Pick<VideoConfig, "language" | "timeframeStart" | "timeframeEnd">,
	transcribed: { start: number; end: number; language: string | null },
	duration: number,
): { path: string; message: string }[] {
	const problems: { path: string; message: string }[] = [];
	if (config.language !== null && transcribed.language !== null && config.language !== transcribed.language) {
		problems.push({
			path: "config.language",
			message: `the transcript is in "${transcribed.language}"; a new language needs a new transcription (submit the video again)`,
		});
	}
	const frame = frameOf(config, duration);
	// A hundredth of a second of slack: frames are stored as given and clamped to the duration.
	if (frame.start < transcribed.start - 0.01 || frame.end > transcribed.end + 0.01) {
		problems.push({
			path: frame.start < transcribed.start - 0.01 ? "config.timeframeStart" : "config.timeframeEnd",
			message: `only ${transcribed.start}-${transcribed.end} s was transcribed; the time frame must lie inside it (submit the video again for another stretch)`,
		});
	}
	return problems;
}

type Shape = typeof VideoConfigInput.shape;
/** Each config field, optional and without its default: what a reprocess changes. */
type ChangesShape = { [K in keyof Shape]: z.ZodOptional<ReturnType<Shape[K]["unwrap"]>> };

/**
 * The settings a reprocess changes: any config field, each optional (the video's current value
 * stays for the others). Unknown fields are refused, as everywhere. The merged config is then
 * checked whole with VideoConfigInput (so max ≥ min and the rest hold across old and new values).
 */
export const ReprocessConfigInput = z
	.strictObject(
		Object.fromEntries(
			Object.entries(VideoConfigInput.shape).map(([key, field]) => [key, field.unwrap().optional()]),
		) as ChangesShape,
	)
	.openapi("ReprocessConfig", {
		description: "Any config field (see VideoConfig); the fields left out keep the video's current values.",
	});
export type ReprocessConfig = z.output<typeof ReprocessConfigInput>;
