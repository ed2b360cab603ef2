/**
 * Reprocesses of a video (POST /api/videos/:id/reprocess) and the clips of each run. Every write
 * that moves minutes or a status is one guarded batch, like the ledger's and the videos': a
 * reprocess starts only from a finished video, is charged at most once and refunded at most once,
 * and its end (new clips in, old ones out; or the previous config back) happens all at once.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import type { VideoConfig } from "../domain/video-config";
import { REPROCESSABLE_STATUSES } from "../domain/reprocess";
import { progressAt } from "../domain/progress";
import { runBatch, type Db } from "./client";
import { clips, videoReprocesses } from "./schema";
import { processingCount } from "./slots";
import type { NewClip } from "./videos";

export type ReprocessRow = typeof videoReprocesses.$inferSelect;

const NOW = sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;
const REPROCESSABLE = sql.raw(REPROCESSABLE_STATUSES.map((s) => `'${s}'`).join(", "));

/** `<videoId>-r<number>`: the reprocess's row, workflow instance and ledger key at once. */
export const reprocessIdOf = (videoId: string, number: number) => `${videoId}-r${number}`;

export function reprocessesOf(db: Db, videoId: string): Promise<ReprocessRow[]> {
	return db.select().from(videoReprocesses).where(eq(videoReprocesses.videoId, videoId)).orderBy(asc(videoReprocesses.number)).all();
}

export function findReprocess(db: Db, id: string): Promise<ReprocessRow | undefined> {
	return db.select().from(videoReprocesses).where(eq(videoReprocesses.id, id)).get();
}

export function runningReprocessOf(db: Db, videoId: string): Promise<ReprocessRow | undefined> {
	return db.select().from(videoReprocesses).where(and(eq(videoReprocesses.videoId, videoId), eq(videoReprocesses.status, "processing"))).get();
}

export interface NewReprocess {
	id: string;
	videoId: string;
	workspaceId: string;
	number: number;
	config: VideoConfig;
	previousConfig: VideoConfig;
	minutesCharged: number;
}

/**
 * Charges the reprocess (when it costs anything), records it, and moves the video back to
 * `analyzing` with the new config, all or nothing. The first statement is the guard: the video is
 * still finished (so two requests cannot both start one) and the balance covers the cost.
 * @returns true when started; false when the video was no longer finished or the balance too low.
 */
/**
 * Starts it only while fewer than `slotLimit` videos of the workspace are processing (a reprocess
 * takes a processing slot like a video; it does not wait in line for one).
 */
export async function startReprocess(db: Db, r: NewReprocess, slotLimit: number): Promise<boolean> {
	const cost = r.minutesCharged;
	const started = sql`EXISTS (SELECT 1 FROM video_reprocesses WHERE id = ${r.id})`;
	const results = await runBatch(db, [
		sql`UPDATE workspaces SET minutes_balance = minutes_balance - ${cost}
			WHERE id = ${r.workspaceId} AND minutes_balance >= ${cost}
			AND EXISTS (SELECT 1 FROM videos WHERE id = ${r.videoId} AND status IN (${REPROCESSABLE}))
			AND ${processingCount(r.workspaceId)} < ${slotLimit}`,
		sql`INSERT INTO video_reprocesses (id, video_id, workspace_id, number, status, config, previous_config, minutes_charged)
			SELECT ${r.id}, ${r.videoId}, ${r.workspaceId}, ${r.number}, 'processing', ${JSON.stringify(r.config)}, ${JSON.stringify(r.previousConfig)}, ${cost}
			WHERE (SELECT changes()) = 1`,
		sql`UPDATE videos SET status = 'analyzing', config = ${JSON.stringify(r.config)}, progress = ${progressAt("analyzing", 0)}, error_message = NULL,
				started_at = ${NOW}, stage_started_at = ${NOW}, completed_at = NULL, updated_at = ${NOW}
			WHERE id = ${r.videoId} AND status IN (${REPROCESSABLE}) AND ${started}`,
		sql`INSERT INTO minutes_ledger (workspace_id, video_id, kind, minutes, note)
			SELECT ${r.workspaceId}, ${r.id}, 'charge', ${-cost}, ${`reprocess ${r.number} of ${r.videoId}`} WHERE ${cost} > 0 AND ${started}`,
		sql`INSERT INTO video_events (video_id, status, message) SELECT ${r.videoId}, 'analyzing', ${`reprocess ${r.number}`} WHERE ${started}`,
	]);
	return results[1]?.meta.changes === 1;
}

/**
 * The clips of one run (generation): a repeated ranking step replaces only its own, and the
 * previous generation stays listed-and-downloadable until the new one is complete.
 */
export async function replaceGenerationClips(db: Db, video: { id: string; workspaceId: string; aspectRatio: string }, generation: number, ranked: NewClip[]): Promise<void> {
	await runBatch(db, [
		db.delete(clips).where(and(eq(clips.videoId, video.id), eq(clips.generation, generation))),
		...ranked.map((clip, position) =>
			db.insert(clips).values({
				id: clip.id, videoId: video.id, workspaceId: video.workspaceId, position, title: clip.title, hookTitle: clip.hookTitle,
				startTime: clip.start, endTime: clip.end, duration: Math.round((clip.end - clip.start) * 100) / 100, score: clip.score,
				viralityReason: clip.viralityReason, scoreBreakdown: clip.scoreBreakdown, transcript: clip.transcript, status: "queued", aspectRatio: video.aspectRatio,
				hooks: clip.hooks, emotions: clip.emotions, description: clip.description, generation,
			}),
		),
	]);
}

/**
 * The reprocess's clips are all rendered: they replace the previous ones, the video is completed
 * with who ranked them, and the reprocess is done. Guarded on the reprocess still running, so a
 * repeated step changes nothing.
 */
export async function completeReprocess(db: Db, reprocess: Pick<ReprocessRow, "id" | "videoId" | "number">, ranking: { rankedBy: string; note: string | null; clips: number }): Promise<void> {
	const running = sql`EXISTS (SELECT 1 FROM video_reprocesses WHERE id = ${reprocess.id} AND status = 'processing')`;
	await runBatch(db, [
		sql`DELETE FROM clips WHERE video_id = ${reprocess.videoId} AND generation <> ${reprocess.number} AND ${running}`,
		sql`INSERT INTO video_events (video_id, status) SELECT id, 'completed' FROM videos WHERE id = ${reprocess.videoId} AND status NOT IN ('completed', 'failed') AND ${running}`,
		sql`UPDATE videos SET status = 'completed', progress = 100, ranked_by = ${ranking.rankedBy}, ranking_note = ${ranking.note}, completed_at = ${NOW}, updated_at = ${NOW}
			WHERE id = ${reprocess.videoId} AND status NOT IN ('completed', 'failed') AND ${running}`,
		db.update(videoReprocesses).set({ status: "completed", clipsCount: ranking.clips, completedAt: NOW }).where(and(eq(videoReprocesses.id, reprocess.id), eq(videoReprocesses.status, "processing"))),
	]);
}

/**
 * The reprocess failed: the video ends `failed` with the message and its previous config back, its
 * new clips are dropped (the previous ones stay), and the reprocess's minutes come back, once.
 * @returns minutes refunded by this call.
 */
export async function failReprocess(db: Db, reprocess: Pick<ReprocessRow, "id" | "videoId" | "number">, errorMessage: string): Promise<number> {
	const message = errorMessage.slice(0, 1000);
	const running = sql`EXISTS (SELECT 1 FROM video_reprocesses WHERE id = ${reprocess.id} AND status = 'processing')`;
	await runBatch(db, [
		sql`INSERT INTO video_events (video_id, status, message) SELECT id, 'failed', ${message} FROM videos WHERE id = ${reprocess.videoId} AND status NOT IN ('completed', 'failed') AND ${running}`,
		sql`UPDATE videos SET status = 'failed', error_message = ${message}, completed_at = ${NOW}, updated_at = ${NOW},
				config = (SELECT previous_config FROM video_reprocesses WHERE id = ${reprocess.id})
			WHERE id = ${reprocess.videoId} AND status NOT IN ('completed', 'failed') AND ${running}`,
		db.delete(clips).where(and(eq(clips.videoId, reprocess.videoId), eq(clips.generation, reprocess.number))),
		db.update(videoReprocesses).set({ status: "failed", errorMessage: message, completedAt: NOW }).where(and(eq(videoReprocesses.id, reprocess.id), eq(videoReprocesses.status, "processing"))),
	]);
	return refundReprocess(db, reprocess.id, `refund: ${message}`);
}

/**
 * Gives back what a reprocess was charged, once (the ledger's unique (video_id, kind) index, with
 * the reprocess's id as video_id). @returns minutes refunded by this call.
 */
export async function refundReprocess(db: Db, reprocessId: string, note: string): Promise<number> {
	const results = await runBatch(db, [
		sql`INSERT OR IGNORE INTO minutes_ledger (workspace_id, video_id, kind, minutes, note)
			SELECT workspace_id, id, 'refund', minutes_charged, ${note.slice(0, 500)} FROM video_reprocesses WHERE id = ${reprocessId} AND minutes_charged > 0`,
		sql`UPDATE workspaces SET minutes_balance = minutes_balance + (SELECT minutes_charged FROM video_reprocesses WHERE id = ${reprocessId})
			WHERE (SELECT changes()) = 1 AND id = (SELECT workspace_id FROM video_reprocesses WHERE id = ${reprocessId})`,
	]);
	if (results[1]?.meta.changes !== 1) return 0;
	return (await findReprocess(db, reprocessId))?.minutesCharged ?? 0;
}

/** The ids of the clips a video lists now (its files are the ones to keep). */
export async function clipIdsOf(db: Db, videoId: string): Promise<string[]> {
	return (await db.select({ id: clips.id }).from(clips).where(eq(clips.videoId, videoId)).all()).map((r) => r.id);
}

/** Reprocesses that did not fail: the ones the free allowance counts. */
export const countsTowardAllowance = (r: Pick<ReprocessRow, "status">) => r.status !== "failed";
