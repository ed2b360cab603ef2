/**
 * A video's config, wherever it arrives (with the submission, or later by PUT …/config): checked
 * against the video and the workspace before anything is charged or started, then processing
 * starts. One path, so both ways refuse and start a video alike.
 */
import type { Db } from "../db/client";
import { recordTranscriptPlan, startWithConfig, type VideoRow } from "../db/videos";
import { frameOf, type VideoConfig } from "../domain/video-config";
import { ApiError } from "../errors";
import { assertCaptionTemplate } from "./caption-templates";
import { resolveBackground } from "./media-library";
import { queueFull, slotRulesOf } from "./processing-slots";
import { markFailedAndRefund } from "./video-state";
import { startInstance } from "./workflow-instances";
import { transcriptRecordFor } from "./transcript-plan";

/** An unknown split-screen background or category is a 400 now, not a failed video (and a refund) later. */
export async function assertBackgroundChoice(
	db: Db,
	workspaceId: string,
	config: VideoConfig,
	seed: string,
): Promise<void> {
	await resolveBackground(db, workspaceId, config, seed);
}

/** Parts a split-clips video may be cut into: every part is rendered, so this bounds the work one submission buys. */
export const MAX_SPLIT_PARTS = 60;

/**
 * The frame checks of every config a video is processed with (a submission, PUT …/config and a
 * reprocess's merged config alike): the time frame must start inside the video and cover at least a
 * second of it; split-clips must be able to cover it in MAX_SPLIT_PARTS parts. The ranker never
 * cuts more parts than that (it lengthens them, up to clipDurationMax: the moments package's
 * splitIntoParts), so the parts a frame buys are consecutive and render the frame about once, whatever
 * clipDurationMin; only a frame longer than MAX_SPLIT_PARTS parts of clipDurationMax cannot be cut.
 */
export function assertTimeframeInside(config: VideoConfig, duration: number): void {
	if (config.timeframeStart >= duration) {
		throw new ApiError("invalid_request", "The request is invalid.", [
			{ path: "config.timeframeStart", message: `must be less than the video's duration (${duration} s)` },
		]);
	}
	const frame = frameOf(config, duration);
	if (frame.end - frame.start < 1) {
		throw new ApiError("invalid_request", "The request is invalid.", [
			{ path: "config.timeframeEnd", message: "the time frame is shorter than one second" },
		]);
	}
	const length = frame.end - frame.start;
	const parts = Math.ceil(length / config.clipDurationMax);
	if (config.clipType === "split-clips" && parts > MAX_SPLIT_PARTS) {
		const longest = Math.ceil(length / MAX_SPLIT_PARTS);
		throw new ApiError("invalid_request", "The request is invalid.", [
			{
				path: "config.clipDurationMax",
				message: `split-clips needs ${parts} parts of clipDurationMax seconds to cover this time frame; at most ${MAX_SPLIT_PARTS} are made: raise clipDurationMax to at least ${longest} s or narrow the time frame`,
			},
		]);
	}
}

/**
 * Starts the durable ProcessVideoWorkflow (instance id = video id, so never twice). When it cannot
 * be started, the video fails at once and every minute is refunded.
 */
export async function startProcessing(env: Pick<Env, "PROCESS_VIDEO">, db: Db, videoId: string): Promise<void> {
	await startInstance(env, videoId, { kind: "process", videoId }, () =>
		markFailedAndRefund(db, videoId, "Processing could not be started; the minutes were refunded."),
	);
}

/** PUT /api/videos/:id/config: the config of a pending_config video, which then starts processing. */
export async function configureVideo(
	env: Pick<Env, "PROCESS_VIDEO" | "MAX_CONCURRENT_VIDEOS" | "MAX_QUEUED_VIDEOS"> &
		Parameters<typeof transcriptRecordFor>[0],
	db: Db,
	video: VideoRow,
	config: VideoConfig,
): Promise<void> {
	if (video.status !== "pending_config") {
		throw new ApiError(
			"conflict",
			`The video is ${video.status}; its config can only be set while it is pending_config.`,
		);
	}
	assertTimeframeInside(config, video.duration);
	await assertBackgroundChoice(db, video.workspaceId, config, video.id);
	await assertCaptionTemplate(db, video.workspaceId, config);
	// Where its words come from, now that the language and sourceSubtitles are known (422 before anything starts).
	const supplied = video.transcriptSource === "captions";
	await recordTranscriptPlan(
		db,
		video.id,
		transcriptRecordFor(env, config, {
			captions: { supplied, language: supplied ? video.language : null },
			sourceSubtitles: video.sourceSubtitles,
		}),
	);
	const slots = await slotRulesOf(env, db, video.workspaceId);
	const started = await startWithConfig(db, video, config, slots);
	if (started === "queue_full") throw queueFull(slots);
	if (started === "conflict") throw new ApiError("conflict", "The video's config was set by another request.");
	await startProcessing(env, db, video.id);
}
