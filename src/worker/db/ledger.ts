/**
 * The minutes ledger: charged at submission in one D1 batch (a transaction) that cannot overdraw,
 * given back at most once. Every movement is a ledger row; a workspace's balance equals their sum.
 * A refund is only ever written in the same batch as the status change that earns it, guarded on
 * that change (`… WHERE (SELECT changes()) = 1`): a video that already completed (or failed) is
 * never refunded, whichever request or workflow step gets there first.
 */
import { eq, sql } from "drizzle-orm";
import { REFUNDED_WHEN_DELETED } from "../domain/minutes";
import { TERMINAL_STATUSES } from "../domain/video-status";
import { runBatch, type Db } from "./client";
import { workspaces } from "./schema";
import { claimSlotStatement, waitingCount } from "./slots";
import { uploadClaim, uploadStillCompleted } from "./uploads";

export interface NewVideo {
	id: string;
	workspaceId: string;
	projectId: string | null;
	sourceUrl: string;
	title: string;
	status: "pending_config" | "downloading";
	config: unknown;
	sourceVideoId: string;
	duration: number;
	thumbnail: string;
	channelName: string;
	minutesCharged: number;
	webhookUrl: string | null;
	/** A video made of an upload (POST /api/videos/upload): charged only while the upload is still unclaimed, and claims it. */
	uploadId?: string;
}

const NOW = sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;
const list = (values: readonly string[]) => sql.join(values.map((v) => sql`${v}`), sql`, `);

/**
 * Takes `video.minutesCharged` from the workspace and creates the video, its ledger row and its
 * first event, all or nothing. The UPDATE's `minutes_balance >= cost` guard runs inside the
 * transaction, so concurrent submissions can never take the balance below zero. A video that
 * starts processing (`slots` given) is also refused when `slots.maxWaiting` videos of the
 * workspace already wait for a slot, and claims a slot in the same batch when one is free.
 * A video made of an upload is created only while the upload is `completed`, and claims it (`used`).
 * @returns "created"; "insufficient" when the balance was too low; "queue_full"; "upload_taken"
 * when the upload was claimed by another request meanwhile.
 */
export async function chargeAndCreateVideo(db: Db, video: NewVideo, slots: { limit: number; maxWaiting: number } | null): Promise<"created" | "insufficient" | "queue_full" | "upload_taken"> {
	const cost = video.minutesCharged;
	const config = video.config ? JSON.stringify(video.config) : null;
	const roomInQueue = slots ? sql` AND ${waitingCount(video.workspaceId)} < ${slots.maxWaiting}` : sql``;
	const uploadFree = video.uploadId ? uploadClaim.stillCompleted(video.uploadId) : sql``;
	const results = await runBatch(db, [
		sql`UPDATE workspaces SET minutes_balance = minutes_balance - ${cost} WHERE id = ${video.workspaceId} AND minutes_balance >= ${cost}${roomInQueue}${uploadFree}`,
		sql`INSERT INTO videos (id, workspace_id, project_id, source_type, source_url, title, status, progress, config,
				source_video_id, duration, thumbnail, channel_name, minutes_charged, webhook_url, started_at)
			SELECT ${video.id}, ${video.workspaceId}, ${video.projectId}, ${video.uploadId ? "upload" : "hosted"}, ${video.sourceUrl}, ${video.title}, ${video.status}, 0, ${config},
				${video.sourceVideoId}, ${video.duration}, ${video.thumbnail}, ${video.channelName}, ${cost}, ${video.webhookUrl},
				CASE WHEN ${video.status} = 'pending_config' THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%fZ', 'now') END
			WHERE (SELECT changes()) = 1`,
		sql`INSERT INTO minutes_ledger (workspace_id, video_id, kind, minutes, note)
			SELECT ${video.workspaceId}, ${video.id}, 'charge', ${-cost}, 'video submitted' WHERE (SELECT changes()) = 1`,
		// Each only after the one before it wrote its row: an upload's video id is fixed, so the row may exist from a concurrent submission.
		sql`INSERT INTO video_events (video_id, status) SELECT ${video.id}, ${video.status} WHERE (SELECT changes()) = 1`,
		...(video.uploadId ? [uploadClaim.claim(video.uploadId)] : []),
		...(slots ? [claimSlotStatement(video.id, video.workspaceId, slots.limit)] : []),
	]);
	if (results[1]?.meta.changes === 1) return "created";
	if (video.uploadId && !(await uploadStillCompleted(db, video.uploadId))) return "upload_taken";
	return (await balanceOf(db, video.workspaceId)) >= cost && slots ? "queue_full" : "insufficient";
}

/**
 * The refund of a video as two statements that only act when the statement before them changed a
 * row: the ledger row (at most one per video: unique index), then the balance.
 */
function guardedRefund(videoId: string, note: string) {
	return [
		sql`INSERT OR IGNORE INTO minutes_ledger (workspace_id, video_id, kind, minutes, note)
			SELECT workspace_id, id, 'refund', minutes_charged, ${note.slice(0, 500)} FROM videos
			WHERE id = ${videoId} AND minutes_charged > 0 AND (SELECT changes()) = 1`,
		sql`UPDATE workspaces SET minutes_balance = minutes_balance + (SELECT minutes_charged FROM videos WHERE id = ${videoId})
			WHERE (SELECT changes()) = 1 AND id = (SELECT workspace_id FROM videos WHERE id = ${videoId})`,
	];
}

export interface FailOutcome {
	/** This call ended the video (it was still unfinished). */
	ended: boolean;
	minutesRefunded: number;
}

/**
 * Ends an unfinished video as failed with a message a user can read and, in the same batch, gives
 * its charge back (when `refund`) only if this very call moved it: a video that completed, or
 * failed before (refunded or not), is left exactly as it is.
 */
export async function failVideo(db: Db, videoId: string, errorMessage: string, options: { refund: boolean }): Promise<FailOutcome> {
	const message = errorMessage.slice(0, 1000);
	const results = await runBatch(db, [
		sql`UPDATE videos SET status = 'failed', error_message = ${message}, completed_at = ${NOW}, updated_at = ${NOW}
			WHERE id = ${videoId} AND status NOT IN (${list(TERMINAL_STATUSES)})`,
		sql`INSERT INTO video_events (video_id, status, message) SELECT id, 'failed', ${message} FROM videos WHERE id = ${videoId} AND (SELECT changes()) = 1`,
		...(options.refund ? guardedRefund(videoId, `refund: ${message}`) : []),
	]);
	const ended = results[0]?.meta.changes === 1;
	const refunded = options.refund && results[3]?.meta.changes === 1;
	return { ended, minutesRefunded: refunded ? await chargedFor(db, videoId) : 0 };
}

/**
 * DELETE of a video, settled and removed in one batch: a video still in one of
 * REFUNDED_WHEN_DELETED is ended and refunded (guarded on that status, so a video that moves past
 * `transcribing`, completes or fails meanwhile is not), then its rows go. Stored files are R2's part.
 * @returns null when another request deleted it first; otherwise the minutes this call refunded.
 */
export async function deleteVideoSettled(db: Db, videoId: string, minutesCharged: number): Promise<{ minutesRefunded: number } | null> {
	const results = await runBatch(db, [
		sql`UPDATE videos SET status = 'failed', error_message = 'Deleted before anything was delivered.', completed_at = ${NOW}, updated_at = ${NOW}
			WHERE id = ${videoId} AND status IN (${list(REFUNDED_WHEN_DELETED)})`,
		...guardedRefund(videoId, "video deleted before anything was delivered"),
		sql`DELETE FROM clips WHERE video_id = ${videoId}`,
		sql`DELETE FROM video_events WHERE video_id = ${videoId}`,
		sql`DELETE FROM webhook_deliveries WHERE video_id = ${videoId}`,
		sql`DELETE FROM video_reprocesses WHERE video_id = ${videoId}`,
		sql`DELETE FROM videos WHERE id = ${videoId}`,
		sql`DELETE FROM video_steps WHERE video_id = ${videoId}`,
	]);
	if (results[7]?.meta.changes !== 1) return null;
	return { minutesRefunded: results[2]?.meta.changes === 1 ? minutesCharged : 0 };
}

async function chargedFor(db: Db, videoId: string): Promise<number> {
	const row = await db.get<{ minutes: number }>(sql`SELECT minutes_charged AS minutes FROM videos WHERE id = ${videoId}`);
	return row?.minutes ?? 0;
}

export async function balanceOf(db: Db, workspaceId: string): Promise<number> {
	const row = await db.select({ balance: workspaces.minutesBalance }).from(workspaces).where(eq(workspaces.id, workspaceId)).get();
	return row?.balance ?? 0;
}
