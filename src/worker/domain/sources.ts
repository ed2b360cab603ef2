/**
 * What is kept of a video's source, and for how long (issue 45, H1: the service must not be a free
 * downloader and file host). Rules, no I/O.
 *
 * - Only what was paid for is stored: the source is cut to the video's time frame (the one it is
 *   processed with) before it is kept, downloaded or uploaded alike; the kept file's time 0 is the
 *   frame's start (`videos.source_start`), and every time the API shows (clips, words, chapters)
 *   stays in the source's own seconds. A frame that covers the whole source keeps it whole.
 * - A link to the stored source is a delivery: handed out only once the video is delivered
 *   (services/source-link.ts), and DELETE refunds nothing once one was signed (domain/minutes.ts).
 * - It is kept SOURCE_RETENTION_DAYS after the video was delivered (its first run completed), then
 *   the cron deletes it (services/source-retention.ts): its link answers 410 `source_deleted`, and
 *   so do a reprocess and a clip re-render, which need it; the clips, transcript and chapters stay.
 */
import { frameOf, type VideoConfig } from "./video-config";

/** Days a stored source is kept after its video was delivered, unless the operator's SOURCE_RETENTION_DAYS says otherwise. */
export const SOURCE_RETENTION_DAYS = 7;

/** When a source delivered at `deliveredAt` (ISO) is deleted, as ISO. */
export function sourceKeptUntil(deliveredAt: string, retentionDays: number): string {
	return new Date(Date.parse(deliveredAt) + retentionDays * 86_400_000).toISOString();
}

/** A frame within this of the source's ends keeps the source whole (probe and container rounding). */
const WHOLE_SLACK_SECONDS = 0.5;

/**
 * The stretch of the source to keep, or null when the frame covers all of it.
 * @example storedFrameOf({ timeframeStart: 0, timeframeEnd: 1 }, 75) // { start: 0, end: 1 }
 * @example storedFrameOf({ timeframeStart: 0, timeframeEnd: null }, 75) // null: the whole source
 */
export function storedFrameOf(
	config: Pick<VideoConfig, "timeframeStart" | "timeframeEnd">,
	duration: number,
): { start: number; end: number } | null {
	const frame = frameOf(config, duration);
	const whole = frame.start <= WHOLE_SLACK_SECONDS && frame.end >= duration - WHOLE_SLACK_SECONDS;
	return whole ? null : frame;
}
