/**
 * The clip aggregate: a video's clips from its ranking (one generation per run: a reprocess ranks
 * beside the clips it replaces) to their renders, and the clip-level API's reads (one clip of a
 * workspace, the filtered list, counts per video). An edit's life is clip-edits.ts.
 */
import { and, asc, count, desc, eq, gte, inArray, lte, ne, sql, type SQL } from "drizzle-orm";
import { CLIP_STORED_STATUS, type ClipApiStatus, type ClipSortField } from "@clipforge/domain";
import { runBatch, type Db } from "./client";
import { clips, videoReprocesses, videos } from "./schema";

export type ClipRow = typeof clips.$inferSelect;

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

/** The clips' rows as ranked (`queued`, in rank order), of one generation. */
function rankedRows(
	video: { id: string; workspaceId: string; aspectRatio: string },
	ranked: NewClip[],
	generation: number,
): (typeof clips.$inferInsert)[] {
	return ranked.map((clip, position) => ({
		id: clip.id,
		videoId: video.id,
		workspaceId: video.workspaceId,
		position,
		title: clip.title,
		hookTitle: clip.hookTitle,
		startTime: clip.start,
		endTime: clip.end,
		duration: Math.round((clip.end - clip.start) * 100) / 100,
		score: clip.score,
		viralityReason: clip.viralityReason,
		scoreBreakdown: clip.scoreBreakdown,
		transcript: clip.transcript,
		status: "queued",
		aspectRatio: video.aspectRatio,
		hooks: clip.hooks,
		emotions: clip.emotions,
		description: clip.description,
		generation,
	}));
}

/**
 * Replaces the video's clips (a repeated ranking step leaves exactly this ranking) and records who
 * ranked them, and why there are fewer than usual when there are.
 */
export async function replaceClips(
	db: Db,
	video: { id: string; workspaceId: string; aspectRatio: string },
	ranked: NewClip[],
	ranking: { rankedBy: string; note: string | null },
): Promise<void> {
	await runBatch(db, [
		db.delete(clips).where(eq(clips.videoId, video.id)),
		...rankedRows(video, ranked, 0).map((row) => db.insert(clips).values(row)),
		db.update(videos).set({ rankedBy: ranking.rankedBy, rankingNote: ranking.note }).where(eq(videos.id, video.id)),
	]);
}

/**
 * The clips of one run (generation): a repeated ranking step replaces only its own, and the
 * previous generation stays listed-and-downloadable until the new one is complete.
 */
export async function replaceGenerationClips(
	db: Db,
	video: { id: string; workspaceId: string; aspectRatio: string },
	generation: number,
	ranked: NewClip[],
): Promise<void> {
	await runBatch(db, [
		dropGeneration(db, video.id, generation),
		...rankedRows(video, ranked, generation).map((row) => db.insert(clips).values(row)),
	]);
}

export function findClip(db: Db, clipId: string): Promise<ClipRow | undefined> {
	return db.select().from(clips).where(eq(clips.id, clipId)).get();
}

/**
 * The clip belongs to the video's current generation: not to a reprocess still running (whose
 * clips replace the current ones only once all are rendered, and are dropped if it fails). Such a
 * clip is not served, so a reprocess that ends failed (refunded) delivered nothing.
 */
const ofCurrentGeneration = sql`NOT EXISTS (SELECT 1 FROM ${videoReprocesses} WHERE ${videoReprocesses.videoId} = ${clips.videoId} AND ${videoReprocesses.number} = ${clips.generation} AND ${videoReprocesses.status} = 'processing')`;

/** A clip the API may serve (its files or its data): one of the current generation. */
export function findServedClip(db: Db, clipId: string): Promise<ClipRow | undefined> {
	return db
		.select()
		.from(clips)
		.where(and(eq(clips.id, clipId), ofCurrentGeneration))
		.get();
}

/** A clip's rendered files. `duration`: the file's length when it differs from its span in the source (pauses cut out, `jumpCuts`). */
export interface RenderedClipFiles {
	videoKey: string;
	thumbnailKey: string;
	bytes: number;
	duration?: number;
	jumpCuts?: { start: number; end: number }[] | null;
}

export async function markClipRendered(db: Db, clipId: string, files: RenderedClipFiles): Promise<void> {
	await db
		.update(clips)
		.set({ status: "completed", ...files })
		.where(eq(clips.id, clipId));
}

export async function deleteClips(db: Db, videoId: string): Promise<void> {
	await db.delete(clips).where(eq(clips.videoId, videoId));
}

/** The ids of the clips a video lists now (its files are the ones to keep). */
export async function clipIdsOf(db: Db, videoId: string): Promise<string[]> {
	return (await db.select({ id: clips.id }).from(clips).where(eq(clips.videoId, videoId)).all()).map((r) => r.id);
}

/** Removes every clip of the video but those of `generation` (a reprocess's, replacing the previous ones), when `guard` holds. */
export const dropOtherGenerations = (db: Db, videoId: string, generation: number, guard: SQL) =>
	db.delete(clips).where(and(eq(clips.videoId, videoId), ne(clips.generation, generation), guard));

/** Removes the clips of one generation (a failed reprocess's). */
export const dropGeneration = (db: Db, videoId: string, generation: number) =>
	db.delete(clips).where(and(eq(clips.videoId, videoId), eq(clips.generation, generation)));

/**
 * A clip of one of these workspaces, of its video's current generation, or undefined (another
 * workspace's clip is not found either, nor a clip a running reprocess is still making).
 */
export function findClipIn(db: Db, clipId: string, workspaceIds: string[]): Promise<ClipRow | undefined> {
	return db
		.select()
		.from(clips)
		.where(and(eq(clips.id, clipId), inArray(clips.workspaceId, workspaceIds), ofCurrentGeneration))
		.get();
}

export interface ClipFilter {
	minScore?: number;
	maxScore?: number;
	/** Absent: the clips with a file (completed, and those being rendered again after an edit). */
	status?: ClipApiStatus;
	favorited?: boolean;
	sortBy: ClipSortField;
	sortOrder: "asc" | "desc";
}

const SORT_COLUMN = {
	score: clips.score,
	duration: clips.duration,
	startTime: clips.startTime,
	createdAt: clips.createdAt,
} as const;

function whereOf(videoId: string, filter: Omit<ClipFilter, "sortBy" | "sortOrder">): SQL {
	const where: SQL[] = [eq(clips.videoId, videoId)];
	where.push(
		filter.status
			? eq(clips.status, CLIP_STORED_STATUS[filter.status])
			: inArray(clips.status, ["completed", "generating"]),
	);
	if (filter.minScore !== undefined) where.push(gte(clips.score, filter.minScore));
	if (filter.maxScore !== undefined) where.push(lte(clips.score, filter.maxScore));
	if (filter.favorited !== undefined) where.push(eq(clips.favorited, filter.favorited));
	return and(...where)!;
}

/** The video's clips matching the filter, in its order (ties: the ranker's order). */
export function listClips(
	db: Db,
	videoId: string,
	filter: ClipFilter,
	page: { limit: number; offset: number },
): Promise<ClipRow[]> {
	const column = SORT_COLUMN[filter.sortBy];
	const direction = filter.sortOrder === "asc" ? asc : desc;
	return db
		.select()
		.from(clips)
		.where(whereOf(videoId, filter))
		.orderBy(direction(column), asc(clips.position))
		.limit(page.limit)
		.offset(page.offset)
		.all();
}

/** Clips the list shows by default (with a file), and how many of them are favorites, per video. */
export async function clipCounts(
	db: Db,
	videoIds: string[],
): Promise<Map<string, { clips: number; favorited: number }>> {
	const counts = new Map<string, { clips: number; favorited: number }>();
	if (videoIds.length === 0) return counts;
	const rows = await db
		.select({ videoId: clips.videoId, n: count(), favorited: sql<number>`COALESCE(SUM(${clips.favorited}), 0)` })
		.from(clips)
		.where(and(inArray(clips.videoId, videoIds), inArray(clips.status, ["completed", "generating"])))
		.groupBy(clips.videoId)
		.all();
	for (const row of rows) counts.set(row.videoId, { clips: row.n, favorited: Number(row.favorited) });
	return counts;
}

/** Clips of the video being rendered again (a reprocess waits for them). */
export async function generatingClipCount(db: Db, videoId: string): Promise<number> {
	const row = await db
		.select({ n: count() })
		.from(clips)
		.where(and(eq(clips.videoId, videoId), eq(clips.status, "generating")))
		.get();
	return row?.n ?? 0;
}

/** Every file key the video's clip rows point at (kept when unlisted files are cleaned up). */
export async function clipFileKeysOf(db: Db, videoId: string): Promise<string[]> {
	const rows = await db
		.select({ videoKey: clips.videoKey, thumbnailKey: clips.thumbnailKey })
		.from(clips)
		.where(eq(clips.videoId, videoId))
		.all();
	return rows.flatMap((r) => [r.videoKey, r.thumbnailKey]).filter((k): k is string => Boolean(k));
}
