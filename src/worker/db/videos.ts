/**
 * The videos-and-clips aggregate: a video row, its status events, its clips and its webhook
 * deliveries. Status and progress writes are guarded UPDATEs, so a repeated workflow step is a
 * no-op: a stage is only entered from an earlier one, progress only ever rises, and a finished
 * video (completed/failed) is never touched again.
 */
import { and, asc, count, desc, eq, inArray, lt, notInArray, or, sql, type SQL } from "drizzle-orm";
import { TERMINAL_STATUSES, VIDEO_STATUSES, type VideoStatus } from "../domain/video-status";
import { runBatch, type Db } from "./client";
import { claimSlotStatement, queuePositionOfRow, waitingCount } from "./slots";
import { clips, videos, webhookDeliveries, workspaces } from "./schema";

export type VideoRow = typeof videos.$inferSelect;
export type ClipRow = typeof clips.$inferSelect;

const NOW = sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;
const notFinished = notInArray(videos.status, [...TERMINAL_STATUSES]);
/** The video's status as its position in the seed's order (a status only moves forward in it). */
const statusPosition = sql`(CASE ${videos.status} ${sql.join(VIDEO_STATUSES.map((status, i) => sql.raw(`WHEN '${status}' THEN ${i}`)), sql` `)} END)`;

// ---------------------------------------------------------------- reads

/** A video of one of these workspaces, or undefined (other workspaces' videos are not found either). */
export function findVideo(db: Db, id: string, workspaceIds: string[]): Promise<VideoRow | undefined> {
	return db.select().from(videos).where(and(eq(videos.id, id), inArray(videos.workspaceId, workspaceIds))).get();
}

/** What a status poll shows of a video (only these columns), with its place in line for a slot: one query. */
export function findVideoStatus(db: Db, id: string, workspaceIds: string[]) {
	return db
		.select({
			id: videos.id, title: videos.title, status: videos.status, errorMessage: videos.errorMessage, progress: videos.progress,
			createdAt: videos.createdAt, updatedAt: videos.updatedAt, startedAt: videos.startedAt, queuePosition: sql<number | null>`${queuePositionOfRow}`,
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
	if (after) filters.push(or(lt(videos.createdAt, after.createdAt), and(eq(videos.createdAt, after.createdAt), lt(videos.id, after.id)))!);
	return db.select().from(videos).where(and(...filters)).orderBy(desc(videos.createdAt), desc(videos.id)).limit(query.limit).all();
}

/** Ids of videos still processing whose row has not moved since `cutoff` (oldest first). */
export async function staleProcessingVideoIds(db: Db, cutoff: string, limit: number): Promise<string[]> {
	const rows = await db
		.select({ id: videos.id })
		.from(videos)
		.where(and(inArray(videos.status, ["downloading", "uploading", "transcribing", "analyzing", "generating_clips"]), lt(videos.updatedAt, cutoff)))
		.orderBy(videos.updatedAt)
		.limit(limit)
		.all();
	return rows.map((r) => r.id);
}

// ---------------------------------------------------------------- status and progress

/** Moves the video into `status` (if it is not already there or past it) and records the event. */
export async function enterStage(db: Db, videoId: string, status: VideoStatus, progressFloor: number): Promise<void> {
	const position = VIDEO_STATUSES.indexOf(status);
	await runBatch(db, [
		sql`INSERT INTO video_events (video_id, status) SELECT id, ${status} FROM videos
			WHERE id = ${videoId} AND status <> ${status} AND ${notFinished} AND ${position} > ${statusPosition}`,
		db
			.update(videos)
			.set({ status, progress: sql`MAX(${videos.progress}, ${progressFloor})`, stageStartedAt: NOW, updatedAt: NOW })
			.where(and(eq(videos.id, videoId), notFinished, sql`${position} > ${statusPosition}`)),
	]);
}

/** Raises progress (0-100) without ever lowering it. */
export async function raiseProgress(db: Db, videoId: string, progress: number): Promise<void> {
	const value = Math.min(100, Math.round(progress * 10) / 10);
	await db.update(videos).set({ progress: value, updatedAt: NOW }).where(and(eq(videos.id, videoId), lt(videos.progress, value), notFinished));
}

/** Ends the video as completed unless it already finished. @returns true when this call completed it. */
export async function markCompleted(db: Db, videoId: string): Promise<boolean> {
	const results = await runBatch(db, [
		db.update(videos).set({ status: "completed", progress: 100, completedAt: NOW, updatedAt: NOW }).where(and(eq(videos.id, videoId), notFinished)),
		sql`INSERT INTO video_events (video_id, status) SELECT id, 'completed' FROM videos WHERE id = ${videoId} AND (SELECT changes()) = 1`,
	]);
	return results[0]?.meta.changes === 1;
}

// Failing a video (and refunding it) is one guarded batch in ledger.ts: failVideo.

/**
 * Stores the config of a pending_config video and moves it to `downloading`, unless
 * `slots.maxWaiting` videos of the workspace already wait for a slot; claims a slot when one is
 * free, all in one batch. Guarded on the status, so two concurrent PUTs cannot both start it.
 * @returns "started"; "queue_full"; "conflict" when it is no longer pending_config.
 */
export async function startWithConfig(db: Db, video: { id: string; workspaceId: string }, config: unknown, slots: { limit: number; maxWaiting: number }): Promise<"started" | "queue_full" | "conflict"> {
	const results = await runBatch(db, [
		db
			.update(videos)
			.set({ config, status: "downloading", startedAt: NOW, updatedAt: NOW })
			.where(and(eq(videos.id, video.id), eq(videos.status, "pending_config"), sql`${waitingCount(video.workspaceId)} < ${slots.maxWaiting}`)),
		sql`INSERT INTO video_events (video_id, status) SELECT ${video.id}, 'downloading' WHERE (SELECT changes()) = 1`,
		claimSlotStatement(video.id, video.workspaceId, slots.limit),
	]);
	if (results[0]?.meta.changes === 1) return "started";
	const now = await db.select({ status: videos.status }).from(videos).where(eq(videos.id, video.id)).get();
	return now?.status === "pending_config" ? "queue_full" : "conflict";
}

export async function recordSource(db: Db, videoId: string, sourceKey: string): Promise<void> {
	await db.update(videos).set({ sourceKey }).where(eq(videos.id, videoId));
}

export async function recordTranscript(db: Db, videoId: string, transcriptKey: string, language: string): Promise<void> {
	await db.update(videos).set({ transcriptKey, language }).where(eq(videos.id, videoId));
}

// ---------------------------------------------------------------- clips

export interface NewClip {
	id: string;
	title: string;
	hookTitle: string | null;
	start: number;
	end: number;
	score: number;
	viralityReason: string;
	scoreBreakdown: unknown;
	transcript: string;
	hooks: unknown;
	emotions: string[];
	description: string;
}

/**
 * Replaces the video's clips (a repeated ranking step leaves exactly this ranking) and records who
 * ranked them, and why there are fewer than usual when there are.
 */
export async function replaceClips(db: Db, video: { id: string; workspaceId: string; aspectRatio: string }, ranked: NewClip[], ranking: { rankedBy: string; note: string | null }): Promise<void> {
	await runBatch(db, [
		db.delete(clips).where(eq(clips.videoId, video.id)),
		...ranked.map((clip, position) =>
			db.insert(clips).values({
				id: clip.id, videoId: video.id, workspaceId: video.workspaceId, position, title: clip.title, hookTitle: clip.hookTitle,
				startTime: clip.start, endTime: clip.end, duration: Math.round((clip.end - clip.start) * 100) / 100, score: clip.score,
				viralityReason: clip.viralityReason, scoreBreakdown: clip.scoreBreakdown, transcript: clip.transcript, status: "queued", aspectRatio: video.aspectRatio,
				hooks: clip.hooks, emotions: clip.emotions, description: clip.description,
			}),
		),
		db.update(videos).set({ rankedBy: ranking.rankedBy, rankingNote: ranking.note }).where(eq(videos.id, video.id)),
	]);
}

export function findClip(db: Db, clipId: string): Promise<ClipRow | undefined> {
	return db.select().from(clips).where(eq(clips.id, clipId)).get();
}

/** `duration`: the rendered file's length when it differs from its span in the source (pauses cut out, `jumpCuts`). */
export async function markClipRendered(
	db: Db,
	clipId: string,
	files: { videoKey: string; thumbnailKey: string; bytes: number; duration?: number; jumpCuts?: { start: number; end: number }[] | null },
): Promise<void> {
	await db.update(clips).set({ status: "completed", ...files }).where(eq(clips.id, clipId));
}

/** Rendered clips of the video (of one generation: a reprocess renders beside the clips it replaces). */
export async function completedClipCount(db: Db, videoId: string, generation = 0): Promise<number> {
	const row = await db.select({ n: count() }).from(clips).where(and(eq(clips.videoId, videoId), eq(clips.status, "completed"), eq(clips.generation, generation))).get();
	return row?.n ?? 0;
}

export async function deleteClips(db: Db, videoId: string): Promise<void> {
	await db.delete(clips).where(eq(clips.videoId, videoId));
}

// ---------------------------------------------------------------- webhooks of a video

export interface WebhookTargetRow {
	video: {
		id: string; title: string; status: string; errorMessage: string | null; sourceType: string; sourceUrl: string; workspaceId: string; createdAt: string; completedAt: string | null;
	};
	/** The submission's own URL, else the workspace's. */
	url: string | null;
	secret: string | null;
	clipsCount: number;
}

export async function webhookTargetOf(db: Db, videoId: string): Promise<WebhookTargetRow | null> {
	const row = await db
		.select({
			id: videos.id, title: videos.title, status: videos.status, errorMessage: videos.errorMessage, sourceType: videos.sourceType, sourceUrl: videos.sourceUrl,
			workspaceId: videos.workspaceId, createdAt: videos.createdAt, completedAt: videos.completedAt, url: sql<string | null>`COALESCE(${videos.webhookUrl}, ${workspaces.webhookUrl})`,
			secret: workspaces.webhookSecret, clipsCount: sql<number>`(SELECT COUNT(*) FROM clips c WHERE c.video_id = ${videos.id} AND c.status = 'completed')`,
		})
		.from(videos)
		.innerJoin(workspaces, eq(workspaces.id, videos.workspaceId))
		.where(eq(videos.id, videoId))
		.get();
	if (!row) return null;
	const { url, secret, clipsCount, ...video } = row;
	return { video, url, secret, clipsCount };
}

export async function webhookAttempts(db: Db, videoId: string, event: string): Promise<number> {
	const row = await db.select({ n: count() }).from(webhookDeliveries).where(and(eq(webhookDeliveries.videoId, videoId), eq(webhookDeliveries.event, event))).get();
	return row?.n ?? 0;
}

export async function recordWebhookDelivery(db: Db, delivery: typeof webhookDeliveries.$inferInsert): Promise<void> {
	await db.insert(webhookDeliveries).values(delivery);
}

export function webhookDeliveriesOf(db: Db, videoId: string) {
	return db.select().from(webhookDeliveries).where(eq(webhookDeliveries.videoId, videoId)).orderBy(asc(webhookDeliveries.id)).all();
}
