/**
 * The safety net behind the workflow's own failure handling. A video still "processing" whose
 * row has not moved for RECONCILE_STALE_MINUTES is checked against its Workflow instance: when the instance
 * errored or was terminated without marking the video (or no longer exists), the video is failed,
 * refunded and cleaned up, so no one waits forever for it and no minutes stay held. An instance
 * that says it is still running is sent a wake event (WAKE_EVENT): the local Workflows engine of
 * `wrangler dev` does not resume an instance by itself after the process restarted (its state is
 * on disk, its run is not), and an event is what starts it again, from its last finished step. On
 * Cloudflare, where engines resume by themselves, the event is never waited for and changes nothing.
 * Runs from the cron trigger (`scheduled`).
 */
import { failClipEdit, staleClipEdits } from "../db/clips";
import { getDb } from "../db/client";
import { logger } from "../lib/log";
import { clipEditIdOf } from "./edit-clip";
import { runningReprocessOf } from "../db/reprocesses";
import { findVideoById, staleProcessingVideoIds } from "../db/videos";
import { wakeWaiting } from "./processing-slots";
import { failReprocessAndRefund } from "./reprocess-state";
import { settingsOf } from "../settings";
import { deleteVideoArtifacts } from "./video-cleanup";
import { markFailedAndRefund } from "./video-state";

const BATCH = 50;
/** The event that wakes an instance the local engine left idle after a restart (no step waits for it). */
export const WAKE_EVENT = "reconcile-wake";
const ALIVE_STATES = new Set(["queued", "running", "waiting"]);

/** Sends WAKE_EVENT to an instance that says it runs; never throws (the next cron tries again). */
async function wake(env: Pick<Env, "PROCESS_VIDEO">, instanceId: string): Promise<void> {
	try {
		await (await env.PROCESS_VIDEO.get(instanceId)).sendEvent({ type: WAKE_EVENT, payload: {} });
	} catch (error) {
		logger({ instanceId }).warn("reconcile_wake_failed", { error });
	}
}

/** What the Workflows engine says of an instance (`missing` when it cannot be found), and the error's message. */
async function instanceState(
	env: Pick<Env, "PROCESS_VIDEO">,
	instanceId: string,
): Promise<{ state: string; cause: string }> {
	try {
		const status = await (await env.PROCESS_VIDEO.get(instanceId)).status();
		const cause =
			typeof status.error === "object" && status.error
				? String((status.error as { message?: string }).message ?? "")
				: "";
		return { state: status.status, cause };
	} catch {
		return { state: "missing", cause: "" };
	}
}

/**
 * Fails what a stopped instance left running: the reprocess (only its minutes come back; the
 * source, transcript and previous clips stay), or the video, refunded and cleaned up.
 */
async function failStopped(
	env: Pick<Env, "DB" | "MEDIA" | "PROCESS_VIDEO" | "MAX_CONCURRENT_VIDEOS" | "MAX_QUEUED_VIDEOS">,
	db: ReturnType<typeof getDb>,
	videoId: string,
	reprocessId: string | null,
	why: string,
): Promise<void> {
	if (reprocessId) {
		await failReprocessAndRefund(env, db, reprocessId, `it stopped unexpectedly (${why})`);
		return;
	}
	const video = await findVideoById(db, videoId);
	await markFailedAndRefund(db, videoId, `Processing stopped unexpectedly (${why}). The minutes were refunded.`);
	await deleteVideoArtifacts(env, videoId);
	if (video) await wakeWaiting(env, db, video.workspaceId);
}

export interface ReconcileReport {
	checked: number;
	failed: string[];
	running: string[];
}

export async function reconcileStaleVideos(
	env: Pick<
		Env,
		"DB" | "MEDIA" | "PROCESS_VIDEO" | "RECONCILE_STALE_MINUTES" | "MAX_CONCURRENT_VIDEOS" | "MAX_QUEUED_VIDEOS"
	>,
	now = Date.now(),
): Promise<ReconcileReport> {
	const staleMinutes = settingsOf(env).reconcileStaleMinutes;
	const cutoff = new Date(now - staleMinutes * 60_000).toISOString();
	const db = getDb(env);
	const ids = await staleProcessingVideoIds(db, cutoff, BATCH);
	const report: ReconcileReport = { checked: ids.length, failed: [], running: [] };
	for (const id of ids) {
		// A video being reprocessed runs in the reprocess's own instance.
		const reprocess = await runningReprocessOf(db, id);
		const { state, cause } = await instanceState(env, reprocess?.id ?? id);
		if (state === "errored" || state === "terminated" || state === "missing") {
			const why =
				state === "missing"
					? "its processing job no longer exists"
					: `its processing job ${state}${cause ? `: ${cause}` : ""}`;
			await failStopped(env, db, id, reprocess?.id ?? null, why);
			report.failed.push(id);
		} else {
			if (ALIVE_STATES.has(state)) await wake(env, reprocess?.id ?? id);
			report.running.push(id);
		}
	}
	await reconcileClipEdits(env, db, cutoff, report);
	if (report.checked > 0) logger().info("reconcile", report);
	return report;
}

/** A clip stuck `generating` whose edit's instance is gone goes back to its previous version (edits are free: nothing to refund). */
async function reconcileClipEdits(
	env: Pick<Env, "PROCESS_VIDEO">,
	db: ReturnType<typeof getDb>,
	cutoff: string,
	report: ReconcileReport,
): Promise<void> {
	for (const clip of await staleClipEdits(db, cutoff, BATCH)) {
		report.checked++;
		let state: string;
		const instanceId = clipEditIdOf(clip.id, clip.edits);
		try {
			state = (await (await env.PROCESS_VIDEO.get(instanceId)).status()).status;
		} catch {
			state = "missing";
		}
		if (state === "errored" || state === "terminated" || state === "missing") {
			await failClipEdit(
				db,
				clip.id,
				clip.edits,
				"The edit could not be rendered: its job stopped unexpectedly. The clip keeps its previous version.",
			);
			report.failed.push(clip.id);
		} else {
			if (ALIVE_STATES.has(state)) await wake(env, instanceId);
			report.running.push(clip.id);
		}
	}
}
