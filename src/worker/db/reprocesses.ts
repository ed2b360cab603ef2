/**
 * Reprocesses of a video (POST /api/videos/:id/reprocess). Every write that moves minutes or a
 * status is one guarded batch, like the videos': a reprocess starts only from a finished video, is
 * charged at most once and refunded at most once (ledger.ts's statements), and its end (new clips
 * in, old ones out; or the previous config back) happens all at once.
 */
import { and, asc, eq, inArray, notInArray, sql, type SQL } from "drizzle-orm";
import { TERMINAL_STATUSES } from "@clipforge/domain";
import type { VideoConfig } from "../domain/video-config";
import { REPROCESSABLE_STATUSES } from "../domain/reprocess";
import { progressAt } from "../domain/progress";
import { AFTER_CHANGE, names, NOW, runBatch, type Db } from "./client";
import { dropGeneration, dropOtherGenerations } from "./clips";
import { debitStatement, entryStatement, refundStatements } from "./ledger";
import { videoReprocesses, videos } from "./schema";
import { processingCount } from "./slots";
import { videoEventStatement } from "./videos";

export type ReprocessRow = typeof videoReprocesses.$inferSelect;

const reprocessable = inArray(videos.status, [...REPROCESSABLE_STATUSES]);
const unfinished = notInArray(videos.status, [...TERMINAL_STATUSES]);
/** The reprocess's row exists (this batch wrote it), or is still running. */
const exists = (id: string) => sql`EXISTS (SELECT 1 FROM ${videoReprocesses} WHERE ${videoReprocesses.id} = ${id})`;
const running = (id: string) =>
	sql`EXISTS (SELECT 1 FROM ${videoReprocesses} WHERE ${videoReprocesses.id} = ${id} AND ${videoReprocesses.status} = 'processing')`;
/** The video's event, only while the video is unfinished and `guard` holds. */
const eventWhileUnfinished = (
	videoId: string,
	status: "completed" | "failed",
	guard: SQL,
	message: string | null = null,
) =>
	videoEventStatement(
		videoId,
		status,
		sql`EXISTS (SELECT 1 FROM ${videos} WHERE ${and(eq(videos.id, videoId), unfinished)}) AND ${guard}`,
		message,
	);

/** `<videoId>-r<number>`: the reprocess's row, workflow instance and ledger key at once. */
export const reprocessIdOf = (videoId: string, number: number) => `${videoId}-r${number}`;

export function reprocessesOf(db: Db, videoId: string): Promise<ReprocessRow[]> {
	return db
		.select()
		.from(videoReprocesses)
		.where(eq(videoReprocesses.videoId, videoId))
		.orderBy(asc(videoReprocesses.number))
		.all();
}

export function findReprocess(db: Db, id: string): Promise<ReprocessRow | undefined> {
	return db.select().from(videoReprocesses).where(eq(videoReprocesses.id, id)).get();
}

export function runningReprocessOf(db: Db, videoId: string): Promise<ReprocessRow | undefined> {
	return db
		.select()
		.from(videoReprocesses)
		.where(and(eq(videoReprocesses.videoId, videoId), eq(videoReprocesses.status, "processing")))
		.get();
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
	const started = exists(r.id);
	const fromFinished = sql`EXISTS (SELECT 1 FROM ${videos} WHERE ${and(eq(videos.id, r.videoId), reprocessable)})`;
	const x = videoReprocesses;
	const results = await runBatch(db, [
		debitStatement(db, r.workspaceId, cost, [fromFinished, sql`${processingCount(r.workspaceId)} < ${slotLimit}`]),
		sql`INSERT INTO ${x} (${names(x.id, x.videoId, x.workspaceId, x.number, x.status, x.config, x.previousConfig, x.minutesCharged)})
			SELECT ${r.id}, ${r.videoId}, ${r.workspaceId}, ${r.number}, 'processing', ${JSON.stringify(r.config)}, ${JSON.stringify(r.previousConfig)}, ${cost}
			WHERE ${AFTER_CHANGE}`,
		db
			.update(videos)
			.set({
				status: "analyzing",
				config: r.config,
				progress: progressAt("analyzing", 0),
				errorMessage: null,
				startedAt: NOW,
				stageStartedAt: NOW,
				completedAt: null,
				updatedAt: NOW,
			})
			.where(and(eq(videos.id, r.videoId), reprocessable, started)),
		entryStatement(
			{
				workspaceId: r.workspaceId,
				key: r.id,
				kind: "charge",
				minutes: -cost,
				note: `reprocess ${r.number} of ${r.videoId}`,
			},
			sql`${cost} > 0 AND ${started}`,
		),
		videoEventStatement(r.videoId, "analyzing", started, `reprocess ${r.number}`),
	]);
	return results[1]?.meta.changes === 1;
}

/**
 * The reprocess's clips are all rendered: they replace the previous ones, the video is completed
 * with who ranked them, and the reprocess is done. Guarded on the reprocess still running, so a
 * repeated step changes nothing.
 */
export async function completeReprocess(
	db: Db,
	reprocess: Pick<ReprocessRow, "id" | "videoId" | "number">,
	ranking: { rankedBy: string; note: string | null; clips: number },
): Promise<void> {
	const stillRunning = running(reprocess.id);
	await runBatch(db, [
		dropOtherGenerations(db, reprocess.videoId, reprocess.number, stillRunning),
		eventWhileUnfinished(reprocess.videoId, "completed", stillRunning),
		db
			.update(videos)
			.set({
				status: "completed",
				progress: 100,
				rankedBy: ranking.rankedBy,
				rankingNote: ranking.note,
				completedAt: NOW,
				updatedAt: NOW,
			})
			.where(and(eq(videos.id, reprocess.videoId), unfinished, stillRunning)),
		db
			.update(videoReprocesses)
			.set({ status: "completed", clipsCount: ranking.clips, completedAt: NOW })
			.where(and(eq(videoReprocesses.id, reprocess.id), eq(videoReprocesses.status, "processing"))),
	]);
}

/**
 * The reprocess failed: the video ends `failed` with the message and its previous config back, its
 * new clips are dropped (the previous ones stay), and the reprocess's minutes come back, once,
 * unless the user caused the failure (`byUser`): then the charge stays and the reprocess counts
 * toward the free ones, as a video's charge stays (domain/minutes.ts USER_CAUSED_FAILURES). The
 * first call decides: a later one (the workflow's failure step after the user-caused failure)
 * refunds nothing.
 * @returns minutes refunded by this call.
 */
export async function failReprocess(
	db: Db,
	reprocess: Pick<ReprocessRow, "id" | "videoId" | "number">,
	errorMessage: string,
	options: { byUser?: boolean } = {},
): Promise<number> {
	const message = errorMessage.slice(0, 1000);
	const stillRunning = running(reprocess.id);
	const previousConfig = sql`(SELECT ${videoReprocesses.previousConfig} FROM ${videoReprocesses} WHERE ${videoReprocesses.id} = ${reprocess.id})`;
	await runBatch(db, [
		eventWhileUnfinished(reprocess.videoId, "failed", stillRunning, message),
		db
			.update(videos)
			.set({ status: "failed", errorMessage: message, completedAt: NOW, updatedAt: NOW, config: previousConfig })
			.where(and(eq(videos.id, reprocess.videoId), unfinished, stillRunning)),
		dropGeneration(db, reprocess.videoId, reprocess.number),
		db
			.update(videoReprocesses)
			.set({ status: "failed", errorMessage: message, chargeKept: options.byUser ?? false, completedAt: NOW })
			.where(and(eq(videoReprocesses.id, reprocess.id), eq(videoReprocesses.status, "processing"))),
	]);
	if ((await findReprocess(db, reprocess.id))?.chargeKept) return 0;
	return refundReprocess(db, reprocess.id, `refund: ${message}`);
}

/**
 * Gives back what a reprocess was charged, once (the ledger's unique (video_id, kind) index, with
 * the reprocess's id as video_id). @returns minutes refunded by this call.
 */
export async function refundReprocess(db: Db, reprocessId: string, note: string): Promise<number> {
	const results = await runBatch(db, refundStatements(videoReprocesses, reprocessId, note, { afterChange: false }));
	if (results[1]?.meta.changes !== 1) return 0;
	return (await findReprocess(db, reprocessId))?.minutesCharged ?? 0;
}

/** Reprocesses that did not fail, or failed by the user's doing (charge kept): the ones the free allowance counts. */
export const countsTowardAllowance = (r: Pick<ReprocessRow, "status" | "chargeKept">) =>
	r.status !== "failed" || r.chargeKept;
