/**
 * The video aggregate: a video row and its status events, from its charged creation to its end.
 * Status and progress writes are guarded, so a repeated workflow step is a no-op: a stage is only
 * entered from an earlier one, progress only ever rises, and a finished video (completed/failed)
 * is never touched again. A video's charge is written in the batch that creates it, and its
 * refund in the batch that fails it (ledger.ts's statements), each guarded on the change before it.
 */
import { and, desc, eq, inArray, isNotNull, isNull, lt, notExists, notInArray, or, sql, type SQL } from "drizzle-orm";
import {
	PROCESSING_STAGES,
	TERMINAL_STATUSES,
	VIDEO_STATUSES,
	type TranscriptSource,
	type VideoStatus,
} from "@clipforge/domain";
import { REFUNDED_WHEN_DELETED } from "../domain/minutes";
import { AFTER_CHANGE, names, NOW, runBatch, type Db } from "./client";
import { balanceOf, debitStatement, entryStatement, refundStatements } from "./ledger";
import { recordKeyVideoStatement } from "./idempotency";
import { clips, videoEvents, videoReprocesses, videos, videoSteps, webhookDeliveries } from "./schema";
import { claimSlotStatement, queuePositionOfRow, waitingCount } from "./slots";
import { uploadClaim, uploadStillCompleted } from "./uploads";

export type VideoRow = typeof videos.$inferSelect;

const notFinished = notInArray(videos.status, [...TERMINAL_STATUSES]);
/** DELETE gives the charge back only before anything was delivered: no stage past `transcribing`, no source link signed. */
const refundedWhenDeleted = and(inArray(videos.status, [...REFUNDED_WHEN_DELETED]), isNull(videos.sourceSignedAt))!;
/** The video's status as its position in the seed's order (a status only moves forward in it). */
const statusPosition = sql`(CASE ${videos.status} ${sql.join(
	VIDEO_STATUSES.map((status, i) => sql`WHEN ${status} THEN ${i}`),
	sql` `,
)} END)`;

/** The event of `videoId` entering `status`, written only when `guard` holds. */
function eventStatement(videoId: string, status: VideoStatus, guard: SQL, message: string | null = null): SQL {
	const e = videoEvents;
	return sql`INSERT INTO ${e} (${names(e.videoId, e.status, e.message)}) SELECT ${videoId}, ${status}, ${message} WHERE ${guard}`;
}

/** The event of a video entering `status`, written only if the video exists and `guard` holds. */
export function videoEventStatement(
	videoId: string,
	status: VideoStatus,
	guard: SQL,
	message: string | null = null,
): SQL {
	return eventStatement(
		videoId,
		status,
		sql`EXISTS (SELECT 1 FROM ${videos} WHERE ${videos.id} = ${videoId}) AND ${guard}`,
		message,
	);
}

// ---------------------------------------------------------------- reads

/** A video of one of these workspaces, or undefined (other workspaces' videos are not found either). */
export function findVideo(db: Db, id: string, workspaceIds: string[]): Promise<VideoRow | undefined> {
	return db
		.select()
		.from(videos)
		.where(and(eq(videos.id, id), inArray(videos.workspaceId, workspaceIds)))
		.get();
}

/** What a status poll shows of a video (only these columns), with its place in line for a slot: one query. */
export function findVideoStatus(db: Db, id: string, workspaceIds: string[]) {
	return db
		.select({
			id: videos.id,
			title: videos.title,
			status: videos.status,
			errorMessage: videos.errorMessage,
			progress: videos.progress,
			createdAt: videos.createdAt,
			updatedAt: videos.updatedAt,
			startedAt: videos.startedAt,
			queuePosition: sql<number | null>`${queuePositionOfRow}`,
		})
		.from(videos)
		.where(and(eq(videos.id, id), inArray(videos.workspaceId, workspaceIds)))
		.get();
}

export type VideoStatusRow = NonNullable<Awaited<ReturnType<typeof findVideoStatus>>>;

export function findVideoById(db: Db, id: string): Promise<VideoRow | undefined> {
	return db.select().from(videos).where(eq(videos.id, id)).get();
}

export interface VideoListQuery {
	workspaceIds: string[];
	status?: VideoStatus;
	projectId?: string;
	/** Newest first: the page after this (createdAt, id). */
	after?: { createdAt: string; id: string } | null;
	limit: number;
}

export function listVideos(db: Db, query: VideoListQuery): Promise<VideoRow[]> {
	const filters: SQL[] = [inArray(videos.workspaceId, query.workspaceIds)];
	if (query.status) filters.push(eq(videos.status, query.status));
	if (query.projectId) filters.push(eq(videos.projectId, query.projectId));
	const after = query.after;
	if (after)
		filters.push(
			or(
				lt(videos.createdAt, after.createdAt),
				and(eq(videos.createdAt, after.createdAt), lt(videos.id, after.id)),
			)!,
		);
	return db
		.select()
		.from(videos)
		.where(and(...filters))
		.orderBy(desc(videos.createdAt), desc(videos.id))
		.limit(query.limit)
		.all();
}

/** Ids of videos still processing whose row has not moved since `cutoff` (oldest first). */
export async function staleProcessingVideoIds(db: Db, cutoff: string, limit: number): Promise<string[]> {
	const rows = await db
		.select({ id: videos.id })
		.from(videos)
		.where(and(inArray(videos.status, [...PROCESSING_STAGES]), lt(videos.updatedAt, cutoff)))
		.orderBy(videos.updatedAt)
		.limit(limit)
		.all();
	return rows.map((r) => r.id);
}

/** What the video was charged (0 when it is gone). */
export async function chargedFor(db: Db, videoId: string): Promise<number> {
	const row = await db.select({ minutes: videos.minutesCharged }).from(videos).where(eq(videos.id, videoId)).get();
	return row?.minutes ?? 0;
}

// ---------------------------------------------------------------- creation

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
	/** Where its words come from (domain/transcript-source.ts), when the config is known; transcription otherwise. */
	transcript?: TranscriptRecord;
	/** The source's own subtitle tracks, as the probe listed them. */
	sourceSubtitles?: { tracks: { lang: string; automatic: boolean }[]; language: string | null };
}

/** What a video's row says of where its words come from. */
export interface TranscriptRecord {
	source: TranscriptSource;
	subtitleTrack: { lang: string; automatic: boolean } | null;
	language: string | null;
}

/** The video's row, written only when the statement before it (the charge) changed a row. */
function insertVideoStatement(video: NewVideo): SQL {
	const v = videos;
	const config = video.config ? JSON.stringify(video.config) : null;
	const columns = names(
		v.id,
		v.workspaceId,
		v.projectId,
		v.sourceType,
		v.sourceUrl,
		v.title,
		v.status,
		v.progress,
		v.config,
		v.sourceVideoId,
		v.duration,
		v.thumbnail,
		v.channelName,
		v.minutesCharged,
		v.webhookUrl,
		v.startedAt,
		v.transcriptSource,
		v.subtitleTrack,
		v.language,
		v.sourceSubtitles,
	);
	const startedAt = sql`CASE WHEN ${video.status} = 'pending_config' THEN NULL ELSE ${NOW} END`;
	const transcript = video.transcript ?? { source: "transcription", subtitleTrack: null, language: null };
	const track = transcript.subtitleTrack ? JSON.stringify(transcript.subtitleTrack) : null;
	const subtitles = video.sourceSubtitles ? JSON.stringify(video.sourceSubtitles) : null;
	return sql`INSERT INTO ${v} (${columns})
		SELECT ${video.id}, ${video.workspaceId}, ${video.projectId}, ${video.uploadId ? "upload" : "hosted"}, ${video.sourceUrl}, ${video.title}, ${video.status}, 0, ${config},
			${video.sourceVideoId}, ${video.duration}, ${video.thumbnail}, ${video.channelName}, ${video.minutesCharged}, ${video.webhookUrl}, ${startedAt},
			${transcript.source}, ${track}, ${transcript.language}, ${subtitles}
		WHERE ${AFTER_CHANGE}`;
}

/** What a charge batch did; a refused one says the balance it was refused with (the 402's details). */
export type ChargeOutcome =
	{ outcome: "created" | "upload_taken" } | { outcome: "insufficient" | "queue_full"; balance: number };

/**
 * Takes `video.minutesCharged` from the workspace and creates the video, its ledger row and its
 * first event, all or nothing. The debit's `minutes_balance >= cost` guard runs inside the
 * transaction, so concurrent submissions can never take the balance below zero. A video that
 * starts processing (`slots` given) is also refused when `slots.maxWaiting` videos of the
 * workspace already wait for a slot, and claims a slot in the same batch when one is free.
 * A video made of an upload is created only while the upload is `completed`, and claims it (`used`).
 * With the submission's `idempotencyKey`, its reserved row names the video, in the same batch.
 * @returns "created"; "insufficient" when the balance was too low (with the balance read once
 * after it); "queue_full"; "upload_taken" when the upload was claimed by another request meanwhile.
 */
export async function createChargedVideo(
	db: Db,
	video: NewVideo,
	slots: { limit: number; maxWaiting: number } | null,
	idempotencyKey: string | null = null,
): Promise<ChargeOutcome> {
	const cost = video.minutesCharged;
	const guards: SQL[] = [];
	if (slots) guards.push(sql`${waitingCount(video.workspaceId)} < ${slots.maxWaiting}`);
	if (video.uploadId) guards.push(uploadClaim.stillCompleted(video.uploadId));
	const results = await runBatch(db, [
		debitStatement(db, video.workspaceId, cost, guards),
		insertVideoStatement(video),
		entryStatement(
			{ workspaceId: video.workspaceId, key: video.id, kind: "charge", minutes: -cost, note: "video submitted" },
			AFTER_CHANGE,
		),
		// Each only after the one before it wrote its row: an upload's video id is fixed, so the row may exist from a concurrent submission.
		eventStatement(video.id, video.status, AFTER_CHANGE),
		...(video.uploadId ? [uploadClaim.claim(video.uploadId)] : []),
		...(slots ? [claimSlotStatement(video.id, video.workspaceId, slots.limit)] : []),
		// The submission's Idempotency-Key names the video in the same transaction: a retry with the key
		// finds it, whatever became of the first request's answer (services/idempotency.ts).
		...(idempotencyKey ? [recordKeyVideoStatement(db, video.workspaceId, idempotencyKey, video.id)] : []),
	]);
	if (results[1]?.meta.changes === 1) return { outcome: "created" };
	if (video.uploadId && !(await uploadStillCompleted(db, video.uploadId))) return { outcome: "upload_taken" };
	const balance = await balanceOf(db, video.workspaceId);
	return { outcome: balance >= cost && slots ? "queue_full" : "insufficient", balance };
}

// ---------------------------------------------------------------- status and progress

/** Moves the video into `status` (if it is not already there or past it) and records the event. */
export async function enterStage(db: Db, videoId: string, status: VideoStatus, progressFloor: number): Promise<void> {
	const position = VIDEO_STATUSES.indexOf(status);
	const entering = and(
		eq(videos.id, videoId),
		sql`${videos.status} <> ${status}`,
		notFinished,
		sql`${position} > ${statusPosition}`,
	)!;
	await runBatch(db, [
		eventStatement(videoId, status, sql`EXISTS (SELECT 1 FROM ${videos} WHERE ${entering})`),
		db
			.update(videos)
			.set({
				status,
				progress: sql`MAX(${videos.progress}, ${progressFloor})`,
				stageStartedAt: NOW,
				updatedAt: NOW,
			})
			.where(and(eq(videos.id, videoId), notFinished, sql`${position} > ${statusPosition}`)),
	]);
}

/** Raises progress (0-100) without ever lowering it. */
export async function raiseProgress(db: Db, videoId: string, progress: number): Promise<void> {
	const value = Math.min(100, Math.round(progress * 10) / 10);
	await db
		.update(videos)
		.set({ progress: value, updatedAt: NOW })
		.where(and(eq(videos.id, videoId), lt(videos.progress, value), notFinished));
}

/**
 * The video is `completed`, and its charge recorded as delivered (the first time only). One that
 * ended with no clips (`noClips`, domain/minutes.ts noClipsSettlement) has the settlement's
 * sentence added to its ranking note and, when it says so, its minutes refunded, in the same
 * guarded batch: once, and never for a video that ended otherwise.
 * @returns true when this call completed it.
 */
export async function markCompleted(
	db: Db,
	videoId: string,
	noClips: { refund: boolean; note: string } | null = null,
): Promise<boolean> {
	const note = noClips
		? { rankingNote: sql`trim(coalesce(${videos.rankingNote}, '') || ' ' || ${noClips.note})` }
		: {};
	const results = await runBatch(db, [
		db
			.update(videos)
			.set({
				status: "completed",
				progress: 100,
				completedAt: NOW,
				deliveredAt: sql`COALESCE(${videos.deliveredAt}, ${NOW})`,
				updatedAt: NOW,
				...note,
			})
			.where(and(eq(videos.id, videoId), notFinished)),
		videoEventStatement(videoId, "completed", AFTER_CHANGE),
		...(noClips?.refund
			? refundStatements(videos, videoId, "refund: completed with no clips", { afterChange: true })
			: []),
	]);
	return results[0]?.meta.changes === 1;
}

/** The source's subtitles could not be had after all: the video's words are transcribed, and its row says so. */
export async function recordTranscribedInstead(db: Db, videoId: string): Promise<void> {
	await db
		.update(videos)
		.set({ transcriptSource: "transcription", subtitleTrack: null })
		.where(and(eq(videos.id, videoId), eq(videos.transcriptSource, "subtitles")));
}

/** Where a pending_config video's words will come from, decided when its config arrives (before it starts). */
export async function recordTranscriptPlan(db: Db, videoId: string, plan: TranscriptRecord): Promise<void> {
	await db
		.update(videos)
		.set({ transcriptSource: plan.source, subtitleTrack: plan.subtitleTrack, language: plan.language })
		.where(and(eq(videos.id, videoId), eq(videos.status, "pending_config")));
}

/**
 * Stores the config of a pending_config video and moves it to `downloading`, unless
 * `slots.maxWaiting` videos of the workspace already wait for a slot; claims a slot when one is
 * free, all in one batch. Guarded on the status, so two concurrent PUTs cannot both start it.
 * @returns "started"; "queue_full"; "conflict" when it is no longer pending_config.
 */
export async function startWithConfig(
	db: Db,
	video: { id: string; workspaceId: string },
	config: unknown,
	slots: { limit: number; maxWaiting: number },
): Promise<"started" | "queue_full" | "conflict"> {
	const results = await runBatch(db, [
		db
			.update(videos)
			.set({ config, status: "downloading", startedAt: NOW, updatedAt: NOW })
			.where(
				and(
					eq(videos.id, video.id),
					eq(videos.status, "pending_config"),
					sql`${waitingCount(video.workspaceId)} < ${slots.maxWaiting}`,
				),
			),
		eventStatement(video.id, "downloading", AFTER_CHANGE),
		claimSlotStatement(video.id, video.workspaceId, slots.limit),
	]);
	if (results[0]?.meta.changes === 1) return "started";
	const now = await db.select({ status: videos.status }).from(videos).where(eq(videos.id, video.id)).get();
	return now?.status === "pending_config" ? "queue_full" : "conflict";
}

/**
 * Records that a link to the video's stored source is being handed out, only while its charge is
 * delivered: one guarded write, so the refund guard of DELETE (deleteVideoSettled) sees it.
 * @returns false when the video is not delivered (or gone): no link may be signed.
 */
export async function recordSourceLink(db: Db, videoId: string): Promise<boolean> {
	const result = await db
		.update(videos)
		.set({ sourceSignedAt: sql`COALESCE(${videos.sourceSignedAt}, ${NOW})` })
		.where(and(eq(videos.id, videoId), isNotNull(videos.deliveredAt), isNull(videos.sourcePurgedAt)))
		.run();
	return result.meta.changes === 1;
}

/**
 * Videos whose stored source is past its retention (delivered before `cutoff`, not yet purged),
 * oldest first; only once the video is at rest (not reprocessing, no clip rendering again), so a
 * render under way keeps its source until it ends.
 */
export function sourcesPastRetention(db: Db, cutoff: string, limit: number) {
	const rendering = db
		.select({ id: clips.id })
		.from(clips)
		.where(and(eq(clips.videoId, videos.id), eq(clips.status, "generating")));
	return db
		.select({ id: videos.id })
		.from(videos)
		.where(
			and(
				isNull(videos.sourcePurgedAt),
				isNotNull(videos.deliveredAt),
				lt(videos.deliveredAt, cutoff),
				inArray(videos.status, [...TERMINAL_STATUSES]),
				notExists(rendering),
			),
		)
		.orderBy(videos.deliveredAt)
		.limit(limit)
		.all();
}

/** The stored source was deleted by the retention purge: no link is signed for it again. */
export async function markSourcePurged(db: Db, videoId: string): Promise<void> {
	await db
		.update(videos)
		.set({ sourcePurgedAt: NOW })
		.where(and(eq(videos.id, videoId), isNull(videos.sourcePurgedAt)));
}

export async function recordSource(db: Db, videoId: string, sourceKey: string): Promise<void> {
	await db.update(videos).set({ sourceKey }).where(eq(videos.id, videoId));
}

/**
 * Where the kept source begins in the source (its time frame's start; domain/sources.ts), and its
 * key when it is not the usual one (an upload's frame copied out of it). Written before anything
 * reads the kept file.
 */
export async function recordSourceFrame(db: Db, videoId: string, start: number, sourceKey?: string): Promise<void> {
	await db
		.update(videos)
		.set({ sourceStart: start, ...(sourceKey ? { sourceKey } : {}) })
		.where(eq(videos.id, videoId));
}

export async function recordTranscript(
	db: Db,
	videoId: string,
	transcriptKey: string,
	language: string,
): Promise<void> {
	await db.update(videos).set({ transcriptKey, language }).where(eq(videos.id, videoId));
}

// ---------------------------------------------------------------- the end

export interface FailOutcome {
	/** This call ended the video (it was still unfinished). */
	ended: boolean;
	minutesRefunded: number;
}

/**
 * Ends an unfinished video as failed with a message a user can read and, in the same batch, gives
 * its charge back (when `refund`) only if this very call moved it: a video that completed, or
 * failed before (refunded or not), is left exactly as it is. A failed first run delivers nothing:
 * its clip rows go in the same batch (no list or signed link shows them while the clean-up deletes
 * their files); a video that was reprocessed keeps its clips (its reprocesses end otherwise).
 */
export async function failVideo(
	db: Db,
	videoId: string,
	errorMessage: string,
	options: { refund: boolean },
): Promise<FailOutcome> {
	const message = errorMessage.slice(0, 1000);
	const results = await runBatch(db, [
		db
			.update(videos)
			.set({ status: "failed", errorMessage: message, completedAt: NOW, updatedAt: NOW })
			.where(and(eq(videos.id, videoId), notFinished)),
		videoEventStatement(videoId, "failed", AFTER_CHANGE, message),
		...(options.refund ? refundStatements(videos, videoId, `refund: ${message}`, { afterChange: true }) : []),
		db
			.delete(clips)
			.where(
				and(
					eq(clips.videoId, videoId),
					sql`EXISTS (SELECT 1 FROM ${videos} WHERE ${videos.id} = ${videoId} AND ${videos.status} = 'failed')`,
					sql`NOT EXISTS (SELECT 1 FROM ${videoReprocesses} WHERE ${videoReprocesses.videoId} = ${videoId})`,
				),
			),
	]);
	const ended = results[0]?.meta.changes === 1;
	const refunded = options.refund && results[3]?.meta.changes === 1;
	return { ended, minutesRefunded: refunded ? await chargedFor(db, videoId) : 0 };
}

/**
 * DELETE of a video, settled and removed in one batch: a video still in one of
 * REFUNDED_WHEN_DELETED whose source was never handed out is ended and refunded (guarded on both,
 * so a video that moves past `transcribing`, completes or fails meanwhile, or whose source link was
 * signed, is not), then its rows go. Stored files are R2's part.
 * @returns null when another request deleted it first; otherwise the minutes this call refunded.
 */
export async function deleteVideoSettled(
	db: Db,
	videoId: string,
	minutesCharged: number,
): Promise<{ minutesRefunded: number } | null> {
	const results = await runBatch(db, [
		db
			.update(videos)
			.set({
				status: "failed",
				errorMessage: "Deleted before anything was delivered.",
				completedAt: NOW,
				updatedAt: NOW,
			})
			.where(and(eq(videos.id, videoId), refundedWhenDeleted)),
		...refundStatements(videos, videoId, "video deleted before anything was delivered", { afterChange: true }),
		db.delete(clips).where(eq(clips.videoId, videoId)),
		db.delete(videoEvents).where(eq(videoEvents.videoId, videoId)),
		db.delete(webhookDeliveries).where(eq(webhookDeliveries.videoId, videoId)),
		db.delete(videoReprocesses).where(eq(videoReprocesses.videoId, videoId)),
		db.delete(videos).where(eq(videos.id, videoId)),
		db.delete(videoSteps).where(eq(videoSteps.videoId, videoId)),
	]);
	if (results[7]?.meta.changes !== 1) return null;
	return { minutesRefunded: results[2]?.meta.changes === 1 ? minutesCharged : 0 };
}
