/**
 * Per-workspace concurrency: at most `limit` videos of a workspace process at once (its plan's
 * `max_concurrent_videos`, else the operator's MAX_CONCURRENT_VIDEOS). A video over the limit is
 * accepted (201, charged) and waits its turn in `downloading` with its `job.queuePosition`; its
 * workflow claims a slot before downloading anything, and waits for a `processing-slot` event (or
 * checks again every two minutes). A video that ends (completed, failed, deleted) wakes the next
 * ones. At most MAX_QUEUED_VIDEOS may wait; past that a submission is refused with 429 `queue_full`.
 * So no tenant holds more than its limit of the shared container pool, however much it submits.
 */
import type { Db } from "../db/client";
import { claimSlot, nextWaiting, type SlotState } from "../db/slots";
import { planOf } from "../db/workspaces";
import { ApiError } from "../errors";
import { logger } from "../lib/log";
import { settingsOf } from "../settings";

export const SLOT_EVENT = "processing-slot";

export interface SlotRules {
	/** Videos processing at once. */
	limit: number;
	/** Videos waiting at most. */
	maxWaiting: number;
}

export async function slotRulesOf(
	env: Pick<Env, "MAX_CONCURRENT_VIDEOS" | "MAX_QUEUED_VIDEOS">,
	db: Db,
	workspaceId: string,
): Promise<SlotRules> {
	return slotRulesFor(env, (await planOf(db, workspaceId)) ?? null);
}

/** The rules of a plan already read (a submission reads it with its standing, db/submission-standing.ts). */
export function slotRulesFor(
	env: Pick<Env, "MAX_CONCURRENT_VIDEOS" | "MAX_QUEUED_VIDEOS">,
	plan: { maxConcurrentVideos: number | null } | null,
): SlotRules {
	const settings = settingsOf(env);
	return {
		limit: Math.max(1, plan?.maxConcurrentVideos ?? settings.maxConcurrentVideos),
		maxWaiting: settings.maxQueuedVideos,
	};
}

export async function claimProcessingSlot(
	env: Pick<Env, "MAX_CONCURRENT_VIDEOS" | "MAX_QUEUED_VIDEOS">,
	db: Db,
	videoId: string,
	workspaceId: string,
): Promise<SlotState> {
	return claimSlot(db, videoId, workspaceId, (await slotRulesOf(env, db, workspaceId)).limit);
}

/**
 * Tells the next waiting videos of the workspace that a slot may be free (each checks for itself,
 * so waking too many is harmless). Best effort: a missed event is caught by the two-minute check.
 */
export async function wakeWaiting(
	env: Pick<Env, "PROCESS_VIDEO" | "MAX_CONCURRENT_VIDEOS" | "MAX_QUEUED_VIDEOS">,
	db: Db,
	workspaceId: string,
): Promise<void> {
	const { limit } = await slotRulesOf(env, db, workspaceId);
	for (const id of await nextWaiting(db, workspaceId, limit)) {
		try {
			await (await env.PROCESS_VIDEO.get(id)).sendEvent({ type: SLOT_EVENT, payload: {} });
		} catch (error) {
			logger({ videoId: id, workspaceId }).warn("wake_waiting_video_failed", { error });
		}
	}
}

export function queueFull(rules: SlotRules): ApiError {
	return new ApiError(
		"queue_full",
		`The workspace already has ${rules.maxWaiting} videos waiting for a processing slot (${rules.limit} process at once); submit more once some have finished. Nothing was charged.`,
		{ maxQueued: rules.maxWaiting, maxConcurrent: rules.limit, retryAfter: 60 },
	);
}
