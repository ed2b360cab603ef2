/**
 * Status and progress writes for a video. Every write is a guarded UPDATE, so a repeated workflow
 * step is a no-op: a stage is only entered from an earlier one, progress only ever rises, and a
 * finished video (completed/failed) is never touched again.
 */
import { VIDEO_STATUSES, type VideoStatus } from "../domain/video-status";
import { refundVideo } from "./minutes";

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
const TERMINAL = "('completed', 'failed')";

/** Stage order as the seed lists it; a status can only move forward in it. */
const ORDER = new Map<VideoStatus, number>(VIDEO_STATUSES.map((status, i) => [status, i]));
const orderOf = (status: VideoStatus) => ORDER.get(status) ?? 0;

/** Moves the video into `status` (if it is not already there or past it) and records the event. */
export async function enterStage(db: D1Database, videoId: string, status: VideoStatus, progressFloor: number): Promise<void> {
	await db.batch([
		db.prepare("INSERT INTO video_events (video_id, status) SELECT id, ?2 FROM videos WHERE id = ?1 AND status <> ?2 AND status NOT IN " + TERMINAL + " AND ?3 > (CASE status " + caseOrder() + " END)").bind(videoId, status, orderOf(status)),
		db
			.prepare(
				`UPDATE videos SET status = ?2, progress = MAX(progress, ?3), stage_started_at = ${NOW}, updated_at = ${NOW}
				 WHERE id = ?1 AND status NOT IN ${TERMINAL} AND ?4 > (CASE status ${caseOrder()} END)`,
			)
			.bind(videoId, status, progressFloor, orderOf(status)),
	]);
}

/** Raises progress (0-100) without ever lowering it. */
export async function raiseProgress(db: D1Database, videoId: string, progress: number): Promise<void> {
	await db
		.prepare(`UPDATE videos SET progress = ?2, updated_at = ${NOW} WHERE id = ?1 AND progress < ?2 AND status NOT IN ${TERMINAL}`)
		.bind(videoId, Math.min(100, Math.round(progress * 10) / 10))
		.run();
}

export async function markCompleted(db: D1Database, videoId: string): Promise<void> {
	await db.batch([
		db.prepare(`INSERT INTO video_events (video_id, status) SELECT id, 'completed' FROM videos WHERE id = ?1 AND status NOT IN ${TERMINAL}`).bind(videoId),
		db
			.prepare(`UPDATE videos SET status = 'completed', progress = 100, completed_at = ${NOW}, updated_at = ${NOW} WHERE id = ?1 AND status NOT IN ${TERMINAL}`)
			.bind(videoId),
	]);
}

/** Ends the video as failed with a message a user can read, and refunds its minutes (once). */
export async function markFailedAndRefund(db: D1Database, videoId: string, errorMessage: string): Promise<void> {
	const message = errorMessage.slice(0, 1000);
	await db.batch([
		db.prepare(`INSERT INTO video_events (video_id, status, message) SELECT id, 'failed', ?2 FROM videos WHERE id = ?1 AND status NOT IN ${TERMINAL}`).bind(videoId, message),
		db
			.prepare(`UPDATE videos SET status = 'failed', error_message = ?2, completed_at = ${NOW}, updated_at = ${NOW} WHERE id = ?1 AND status NOT IN ${TERMINAL}`)
			.bind(videoId, message),
	]);
	await refundVideo(db, videoId, `refund: ${message}`);
}

function caseOrder(): string {
	return VIDEO_STATUSES.map((status, i) => `WHEN '${status}' THEN ${i}`).join(" ");
}
