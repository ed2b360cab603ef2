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
import { dropOtherGenerations } from "./clips";
import { debitStatement, entryStatement, refundStatements } from "./ledger";
import { clips, videoReprocesses, videos } from "./schema";
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
 * repeated step changes nothing. @returns true when this call completed it.
 */
export async function completeReprocess(
	db: Db,
	reprocess: Pick<ReprocessRow, "id" | "videoId" | "number">,
	ranking: { rankedBy: string; note: string | null; clips: number },
	options: { refund?: string } = {},
): Promise<boolean> {
	const stillRunning = running(reprocess.id);
	const results = await runBatch(db, [
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
		// A run with no clips of talk that holds none is refunded (domain/minutes.ts noClipsSettlement), on this very completion.
		...(options.refund
			? refundStatements(videoReprocesses, reprocess.id, options.refund, { afterChange: true })
			: []),
	]);
	return results[3]?.meta.changes === 1;
}

/**
 * The reprocess failed: the video ends `failed` with the message and its previous config back, its
 * new clips are dropped (the previous ones stay), and the reprocess's minutes come back, once,
 * unless the user caused the failure (`byUser`): then the charge stays and the reprocess counts
 * toward the free ones, as a video's charge stays (domain/minutes.ts USER_CAUSED_FAILURES). One
 * batch, every write guarded on the reprocess still running and the refund on this very call
 * ending it: a reprocess that completed (a finish step failing after its commit) or failed before
 * (the workflow's failure step after the user-caused failure) is left as it is, refunded nothing.
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
	const refund = !options.byUser;
	const results = await runBatch(db, [
		eventWhileUnfinished(reprocess.videoId, "failed", stillRunning, message),
		db
			.update(videos)
			.set({ status: "failed", errorMessage: message, completedAt: NOW, updatedAt: NOW, config: previousConfig })
			.where(and(eq(videos.id, reprocess.videoId), unfinished, stillRunning)),
		// Its clips only while it runs: once completed they are the video's current ones.
		db
			.delete(clips)
			.where(and(eq(clips.videoId, reprocess.videoId), eq(clips.generation, reprocess.number), stillRunning)),
		endRunning(db, reprocess.id, { errorMessage: message, chargeKept: !refund }),
		...(refund
			? refundStatements(videoReprocesses, reprocess.id, `refund: ${message}`, { afterChange: true })
			: []),
	]);
	return refund ? refundedBy(db, reprocess.id, results[5]) : 0;
}

/**
 * DELETE of a video while it is being reprocessed: the reprocess ends (failed) and its minutes come
 * back in one batch, only if it was still running: one that completed meanwhile is not refunded.
 * @returns minutes refunded by this call.
 */
export async function endReprocessForDelete(db: Db, reprocessId: string, note: string): Promise<number> {
	const results = await runBatch(db, [
		endRunning(db, reprocessId, { errorMessage: note, chargeKept: false }),
		...refundStatements(videoReprocesses, reprocessId, note, { afterChange: true }),
	]);
	return refundedBy(db, reprocessId, results[2]);
}

/** The reprocess's row from `processing` to `failed` (the statement a refund is guarded on). */
function endRunning(db: Db, reprocessId: string, end: { errorMessage: string; chargeKept: boolean }) {
	return db
		.update(videoReprocesses)
		.set({ status: "failed", ...end, completedAt: NOW })
		.where(and(eq(videoReprocesses.id, reprocessId), eq(videoReprocesses.status, "processing")));
}

/** What the refund's balance statement gave back (it ran only after its ledger row was written). */
async function refundedBy(db: Db, reprocessId: string, balanceUpdate: D1Result | undefined): Promise<number> {
	if (balanceUpdate?.meta.changes !== 1) return 0;
	return (await findReprocess(db, reprocessId))?.minutesCharged ?? 0;
}

/** Reprocesses that did not fail, or failed by the user's doing (charge kept): the ones the free allowance counts. */
export const countsTowardAllowance = (r: Pick<ReprocessRow, "status" | "chargeKept">) =>
	r.status !== "failed" || r.chargeKept;
