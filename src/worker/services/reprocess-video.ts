/**
 * POST /api/videos/:id/reprocess: checks, cheapest first, so a refused reprocess never costs
 * anything; then the charge (if any), the new config and the status move in one guarded batch, and
 * a workflow instance of its own (id `<videoId>-r<n>`) runs analyzing and generating_clips again.
 */
import { generatingClipCount } from "../db/clips";
import type { Db } from "../db/client";
import { balanceOf } from "../db/ledger";
import {
	countsTowardAllowance,
	failReprocess,
	findReprocess,
	reprocessesOf,
	reprocessIdOf,
	startReprocess,
	type ReprocessRow,
} from "../db/reprocesses";
import { processingVideos } from "../db/slots";
import { findVideoById, type VideoRow } from "../db/videos";
import { REPROCESSABLE_STATUSES, reprocessCost, transcriptConflicts, type ReprocessConfig } from "../domain/reprocess";
import { frameOf, VideoConfigInput, type VideoConfig } from "../domain/video-config";
import { ApiError, zodIssues } from "../errors";
import { assertCaptionTemplate } from "./caption-templates";
import { assertBackgroundChoice, assertTimeframeInside } from "./configure-video";
import { r2Keys } from "./r2-keys";
import type { settingsOf } from "../settings";
import { sourceExpired } from "./source-link";
import { slotRulesOf } from "./processing-slots";
import { assertActivePlan } from "./active-plan";
import { startInstance } from "./workflow-instances";

const isReprocessable = (status: string) => (REPROCESSABLE_STATUSES as readonly string[]).includes(status);

export async function reprocessVideo(
	env: Pick<Env, "PROCESS_VIDEO" | "MEDIA" | "MAX_CONCURRENT_VIDEOS" | "MAX_QUEUED_VIDEOS">,
	db: Db,
	video: VideoRow,
	changes: ReprocessConfig | undefined,
): Promise<ReprocessRow> {
	await assertFinished(db, video);
	const history = await reprocessesOf(db, video.id);
	await assertStoredFiles(env, video, history);

	const current = VideoConfigInput.parse(video.config);
	const config = mergedConfig(current, changes, video.duration);
	const conflicts = transcriptConflicts(
		config,
		{ ...frameOf(transcribedConfig(current, history), video.duration), language: video.language },
		video.duration,
	);
	if (conflicts.length > 0) throw new ApiError("invalid_request", "The request is invalid.", conflicts);
	await assertBackgroundChoice(db, video.workspaceId, config, video.id);
	await assertCaptionTemplate(db, video.workspaceId, config, current.captionTemplateId);
	await assertActivePlan(db, video.workspaceId);

	const cost = reprocessCost(history.filter(countsTowardAllowance).length, config, video.duration);
	const number = Math.max(0, ...history.map((r) => r.number)) + 1;
	const id = reprocessIdOf(video.id, number);
	const slots = await slotRulesOf(env, db, video.workspaceId);
	const started = await startReprocess(
		db,
		{
			id,
			videoId: video.id,
			workspaceId: video.workspaceId,
			number,
			config,
			previousConfig: current,
			minutesCharged: cost,
		},
		slots.limit,
	);
	if (!started) throw await whyNotStarted(db, video, slots.limit, cost);

	const settle = () =>
		failReprocess(
			db,
			{ id, videoId: video.id, number },
			"Reprocessing could not be started; its minutes were refunded.",
		);
	await startInstance(env, id, { kind: "reprocess", videoId: video.id, reprocessId: id }, settle);
	return (await findReprocess(db, id))!;
}

/** A reprocess starts from a video whose run ended, with no clip of it rendering again. */
async function assertFinished(db: Db, video: VideoRow): Promise<void> {
	if (video.status === "pending_config") {
		throw new ApiError(
			"conflict",
			"The video has not been processed yet: send its config with PUT /api/videos/{id}/config.",
		);
	}
	if (!isReprocessable(video.status)) {
		throw new ApiError(
			"video_processing",
			`The video is still processing (${video.status}); reprocess it once it has completed.`,
			{ status: video.status },
		);
	}
	if ((await generatingClipCount(db, video.id)) > 0) {
		throw new ApiError(
			"video_processing",
			"A clip of this video is being rendered again after an edit; reprocess it once that has finished.",
			{ status: video.status },
		);
	}
}

/** The guarded start refused: the video moved on, the workspace's slots are full, or the balance is short. */
async function whyNotStarted(db: Db, video: VideoRow, slotLimit: number, cost: number): Promise<ApiError> {
	const now = await findVideoById(db, video.id);
	if (!now || !isReprocessable(now.status))
		return new ApiError("video_processing", `The video is already being processed (${now?.status ?? "deleted"}).`, {
			status: now?.status,
		});
	// Free reprocesses must not run past the workspace's share of the container pool.
	if ((await processingVideos(db, video.workspaceId)) >= slotLimit) {
		const message = `The workspace already has ${slotLimit} video(s) processing, its limit; reprocess this one once one has finished. Nothing was charged.`;
		return new ApiError("queue_full", message, { maxConcurrent: slotLimit, retryAfter: 60 });
	}
	const balance = await balanceOf(db, video.workspaceId);
	return new ApiError(
		"insufficient_minutes",
		`This reprocess needs ${cost} minute(s); the workspace has ${balance}.`,
		{ required: cost, balance },
	);
}

/**
 * The video's config with the changes on top, checked whole, with a submission's frame checks too
 * (a reprocess renders as much as a first run); a reprocess always makes clips.
 */
function mergedConfig(current: VideoConfig, changes: ReprocessConfig | undefined, duration: number): VideoConfig {
	if (changes?.skipClipping === true) {
		throw new ApiError("invalid_request", "The request is invalid.", [
			{
				path: "config.skipClipping",
				message: "a reprocess makes clips; the transcript is already at GET /api/videos/{id}/transcript",
			},
		]);
	}
	const parsed = VideoConfigInput.safeParse({ ...current, ...stripUndefined(changes ?? {}), skipClipping: false });
	if (!parsed.success) {
		throw new ApiError(
			"invalid_request",
			"The request is invalid.",
			zodIssues(parsed.error).map((issue) => ({ ...issue, path: `config.${issue.path}` })),
		);
	}
	assertTimeframeInside(parsed.data, duration);
	return parsed.data;
}

/** The config the transcript was made with: the one before the first reprocess, or the current one. */
function transcribedConfig(current: VideoConfig, history: ReprocessRow[]): VideoConfig {
	return history[0] ? VideoConfigInput.parse(history[0].previousConfig) : current;
}

/**
 * The source and transcript must still be stored. A video that failed on its first run had its
 * files deleted (and its minutes refunded); one whose reprocess failed keeps them.
 */
async function assertStoredFiles(
	env: Pick<Env, "MEDIA"> & Parameters<typeof settingsOf>[0],
	video: VideoRow,
	history: ReprocessRow[],
): Promise<void> {
	if (video.sourcePurgedAt) throw sourceExpired(env, video.sourcePurgedAt, "reprocessed");
	const sourceKey = video.sourceKey ?? r2Keys.source(video.id);
	const transcriptKey = video.transcriptKey;
	const failedFirstRun = video.status === "failed" && history.length === 0;
	const [source, transcript] =
		failedFirstRun || !transcriptKey
			? [null, null]
			: await Promise.all([env.MEDIA.head(sourceKey), env.MEDIA.head(transcriptKey)]);
	if (!source || !transcript) {
		throw new ApiError(
			"source_deleted",
			failedFirstRun
				? "This video failed and its stored files were deleted (its minutes were refunded); submit the URL again."
				: "The stored source or transcript of this video is no longer there, so it cannot be reprocessed; submit the URL again.",
		);
	}
}

function stripUndefined<T extends object>(value: T): Partial<T> {
	return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
