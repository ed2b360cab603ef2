/**
 * Ending a reprocess that failed, and what deleting a reprocessed video gives back. Shared by the
 * workflow, the reconciler and DELETE /api/videos/:id, so all three end one alike.
 */
import type { Db } from "../db/client";
import { clipIdsOf } from "../db/clips";
import {
	endReprocessForDelete,
	failReprocess,
	findReprocess,
	reprocessesOf,
	runningReprocessOf,
} from "../db/reprocesses";
import { clipFileKeysOf } from "../db/clips";
import { logger } from "../lib/log";
import { wakeWaiting } from "./processing-slots";
import { r2Keys } from "./r2-keys";

/**
 * The video ends `failed` with a message saying what happened, keeping its previous clips and
 * config; the reprocess's minutes come back (once); its half-made clip files go.
 * @returns minutes refunded by this call.
 */
export async function failReprocessAndRefund(
	env: Pick<Env, "MEDIA" | "PROCESS_VIDEO" | "MAX_CONCURRENT_VIDEOS" | "MAX_QUEUED_VIDEOS">,
	db: Db,
	reprocessId: string,
	cause: string,
): Promise<number> {
	const row = await findReprocess(db, reprocessId);
	if (!row) return 0;
	const refund = row.minutesCharged > 0 ? ` and its ${row.minutesCharged} minute(s) were refunded` : "";
	const message = `Reprocessing with the new settings failed: ${cause.replace(/\.$/, "")}. The previous clips and settings are kept${refund}.`;
	const minutesRefunded = await failReprocess(db, row, message);
	await deleteUnlistedClipFiles(env, db, row.videoId);
	// Its processing slot is free: the workspace's next waiting video may start.
	await wakeWaiting(env, db, row.workspaceId);
	return minutesRefunded;
}

/**
 * DELETE of a video that was ever reprocessed: its own charge was delivered (the transcript and the
 * first clips), so only a reprocess still running is refunded, and its workflow instance stopped.
 * @returns minutes refunded, or null when the video was never reprocessed (the usual rules apply).
 */
export async function refundReprocessOnDelete(
	env: Pick<Env, "PROCESS_VIDEO">,
	db: Db,
	videoId: string,
): Promise<number | null> {
	const running = await runningReprocessOf(db, videoId);
	if (!running) return (await reprocessesOf(db, videoId)).length > 0 ? 0 : null;
	try {
		const instance = await env.PROCESS_VIDEO.get(running.id);
		const { status } = await instance.status();
		if (status !== "complete" && status !== "errored" && status !== "terminated") await instance.terminate();
	} catch (error) {
		logger({ videoId, instanceId: running.id }).warn("terminate_reprocess_failed", { error });
	}
	// Ended and refunded in one guarded batch: a reprocess that completed meanwhile is not refunded.
	return endReprocessForDelete(db, running.id, "video deleted while it was being reprocessed");
}

/**
 * Deletes the clip files no clip row points at any more (a replaced generation's, or a failed
 * reprocess's), keeping the watermark copy. Safe to repeat: it looks at what is stored.
 */
export async function deleteUnlistedClipFiles(env: Pick<Env, "MEDIA">, db: Db, videoId: string): Promise<number> {
	const keep = new Set(
		(await clipIdsOf(db, videoId)).flatMap((id) => [
			r2Keys.clipVideo(videoId, id),
			r2Keys.clipThumbnail(videoId, id),
		]),
	);
	// An edited clip's files have keys of their own (r2Keys.clipEditVideo).
	for (const key of await clipFileKeysOf(db, videoId)) keep.add(key);
	keep.add(r2Keys.clipWatermark(videoId));
	let deleted = 0;
	let cursor: string | undefined;
	do {
		const page = await env.MEDIA.list({ prefix: `clips/${videoId}/`, cursor });
		const stale = page.objects.map((o) => o.key).filter((key) => !keep.has(key));
		if (stale.length > 0) await env.MEDIA.delete(stale);
		deleted += stale.length;
		cursor = page.truncated ? page.cursor : undefined;
	} while (cursor);
	return deleted;
}
