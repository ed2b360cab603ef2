/**
 * What a video costs and when it is given back. Cost: `ceil(minutes in the time frame)`, at least
 * 1, charged at submission. A video that fails through no fault of the user is refunded in full,
 * once; a failure the user caused (see USER_CAUSED_FAILURES) keeps the charge. Deleting a video
 * refunds it only while nothing has been delivered: up to and including `transcribing` (the
 * transcript and the source are served only once the video is `completed`), and never once a link
 * to its source was signed (a source link is a delivery); past that the charge stays.
 */
import { frameOf, type VideoConfig } from "./video-config";
import type { VideoStatus } from "@clipforge/domain";

/** `ceil(seconds in the time frame / 60)`, at least 1. */
export function minutesFor(duration: number, config: VideoConfig | null): number {
	const frame = frameOf(config, duration);
	return Math.max(1, Math.ceil((frame.end - frame.start) / 60));
}

/** The statuses in which DELETE still gives the charge back: nothing was delivered yet. */
export const REFUNDED_WHEN_DELETED = [
	"pending_config",
	"downloading",
	"uploading",
	"transcribing",
] as const satisfies readonly VideoStatus[];

/**
 * Failures the user causes and therefore pays for (the video fails with a message saying so; the
 * charge stays). Everything else that fails is refunded: the source breaking, the render tier,
 * Workers AI, a silent video, processing that could not start or stalled.
 */
export const USER_CAUSED_FAILURES = {
	/** The workspace deleted the split-screen background (or emptied the category) a video was made with. */
	backgroundDeleted: (what: string) =>
		`${what} was deleted by the workspace while the video was processing, so its clips could not be drawn. The failure was caused by that deletion; the minutes are not refunded.`,
} as const;

/**
 * A run that ends `completed` with no clips (its ranking note says why). Without a custom prompt
 * nothing in the talk could be clipped (greetings, sign-offs and housekeeping only): the minutes
 * come back, as for a silent video. With one, the user's prompt matched nothing: the transcript and
 * chapters were made and the charge stays; a reprocess with another prompt costs what reprocesses
 * cost (the first is free). A skipClipping video asked for no clips and is not this case.
 * @returns whether to refund, and the sentence added to the video's `rankingNote`.
 */
export function noClipsSettlement(config: Pick<VideoConfig, "customPrompt">): { refund: boolean; note: string } {
	return config.customPrompt?.trim()
		? {
				refund: false,
				note: "The minutes stay charged (the transcript and chapters were made); reprocess with another prompt to try again (the first reprocess is free).",
			}
		: { refund: true, note: "The minutes were refunded." };
}
