/**
 * The clip aggregate: a video's clips from its ranking (one generation per run: a reprocess ranks
 * beside the clips it replaces) to their renders, the clip-level API's reads (one clip of a
 * workspace, the filtered list, counts per video) and an edit's life (start, finish, fail). An
 * edit's status moves are guarded UPDATEs: it starts only from a `completed` clip of a `completed`
 * video, and only the edit that is running (its number) may finish or fail it, so a repeated
 * workflow step is a no-op.
 */
import { and, asc, count, desc, eq, exists, gte, inArray, lte, ne, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { CLIP_STORED_STATUS, type ClipApiStatus, type ClipSortField } from "@clipforge/domain";
import type { CaptionFix } from "../domain/clip-edit";
import { removedSeconds } from "../domain/silences";
import { AFTER_CHANGE, NOW, runBatch, type Db } from "./client";
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

/** Rendered clips of the video (of one generation: a reprocess renders beside the clips it replaces). */
export async function completedClipCount(db: Db, videoId: string, generation = 0): Promise<number> {
	const row = await db
		.select({ n: count() })
		.from(clips)
		.where(and(eq(clips.videoId, videoId), eq(clips.status, "completed"), eq(clips.generation, generation)))
		.get();
	return row?.n ?? 0;
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

/** Changes that do not alter the picture: written at once, whatever the clip's status. */
export async function updateClipData(
	db: Db,
	clipId: string,
	set: Partial<Pick<ClipRow, "favorited" | "title" | "hookTitle" | "captionFixes" | "transcript">>,
): Promise<void> {
	if (Object.keys(set).length === 0) return;
	await db
		.update(clips)
		.set({ ...set, updatedAt: NOW })
		.where(eq(clips.id, clipId));
}

/** What an edit changes, and what is restored if its render fails. */
export interface ClipCut {
	startTime: number;
	endTime: number;
	hookTitle: string | null;
	captionStyle: string | null;
	captionFixes: CaptionFix[] | null;
	transcript: string;
}

export const cutOf = (row: ClipRow): ClipCut => ({
	startTime: row.startTime,
	endTime: row.endTime,
	hookTitle: row.hookTitle,
	captionStyle: row.captionStyle,
	captionFixes: (row.captionFixes as CaptionFix[] | null) ?? null,
	transcript: row.transcript,
});

const duration = (cut: ClipCut) => Math.round((cut.endTime - cut.startTime) * 100) / 100;

/**
 * Starts edit number `number` (= the clip's edits + 1): the clip takes its new cut and goes
 * `generating`, keeping its files (served until the new ones replace them) and its previous cut,
 * and the video's edit budget is spent by the new cut's length, in one batch. The guard: the clip
 * is `completed`, no other edit started meanwhile, its video is `completed` with `budgetSeconds`
 * still covering the cut, and fewer than `maxRunning` edit re-renders of the workspace run.
 * @returns true when this call started it.
 */
export async function startClipEdit(
	db: Db,
	clip: ClipRow,
	number: number,
	next: ClipCut,
	data: Partial<Pick<ClipRow, "favorited" | "title">>,
	limits: { maxRunning: number; budgetSeconds: number },
): Promise<boolean> {
	const seconds = duration(next);
	const startable = and(
		eq(clips.id, clip.id),
		eq(clips.status, "completed"),
		eq(clips.edits, number - 1),
		sql`EXISTS (SELECT 1 FROM ${videos} WHERE ${videos.id} = ${clips.videoId} AND ${videos.status} = 'completed')`,
		sql`${editRendersRunning(clip.workspaceId)} < ${limits.maxRunning}`,
	)!;
	const results = await runBatch(db, [
		db
			.update(videos)
			.set({ editSeconds: sql`${videos.editSeconds} + ${seconds}` })
			.where(
				and(
					eq(videos.id, clip.videoId),
					sql`${videos.editSeconds} + ${seconds} <= ${limits.budgetSeconds}`,
					exists(db.select({ id: clips.id }).from(clips).where(startable)),
				),
			),
		db
			.update(clips)
			.set({
				...data,
				...next,
				duration: seconds,
				status: "generating",
				edits: number,
				previousEdit: cutOf(clip),
				editError: null,
				updatedAt: NOW,
			})
			.where(and(startable, AFTER_CHANGE)),
	]);
	return results[1]?.meta.changes === 1;
}

const r = alias(clips, "r");
/** Clips of the workspace rendering again after an edit (a video's own renders are `generating` with no edits). */
const editRendersRunning = (workspaceId: string) =>
	sql`(SELECT COUNT(*) FROM ${clips} ${r} WHERE ${r.workspaceId} = ${workspaceId} AND ${r.status} = 'generating' AND ${r.edits} > 0)`;

export async function runningEditRenders(db: Db, workspaceId: string): Promise<number> {
	return (await db.get<{ n: number }>(sql`SELECT ${editRendersRunning(workspaceId)} AS n`))?.n ?? 0;
}

/** The edit's files replace the clip's. @returns the keys they replaced, or null when this edit is no longer the running one. */
export async function completeClipEdit(
	db: Db,
	clipId: string,
	number: number,
	files: RenderedClipFiles,
): Promise<{ videoKey: string | null; thumbnailKey: string | null } | null> {
	const row = await db.select().from(clips).where(eq(clips.id, clipId)).get();
	if (!row || row.status !== "generating" || row.edits !== number) return null;
	const result = await db
		.update(clips)
		.set({ status: "completed", ...files, previousEdit: null, editError: null, updatedAt: NOW })
		.where(and(eq(clips.id, clipId), eq(clips.status, "generating"), eq(clips.edits, number)))
		.run();
	return result.meta.changes === 1 ? { videoKey: row.videoKey, thumbnailKey: row.thumbnailKey } : null;
}

/** The edit's render failed: the clip goes back to its previous cut and files, with the reason. @returns whether this call did it. */
export async function failClipEdit(db: Db, clipId: string, number: number, message: string): Promise<boolean> {
	const row = await db.select().from(clips).where(eq(clips.id, clipId)).get();
	if (!row || row.status !== "generating" || row.edits !== number) return false;
	const previous = (row.previousEdit as ClipCut | null) ?? cutOf(row);
	const result = await db
		.update(clips)
		// The previous file is served again: its length is its span less the pauses cut from it.
		.set({
			status: "completed",
			...previous,
			duration: Math.round((duration(previous) - removedSeconds(row.jumpCuts)) * 100) / 100,
			previousEdit: null,
			editError: message,
			updatedAt: NOW,
		})
		.where(and(eq(clips.id, clipId), eq(clips.status, "generating"), eq(clips.edits, number)))
		.run();
	return result.meta.changes === 1;
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

/** Clips whose edit has not moved since `cutoff` (for the reconciler). */
export function staleClipEdits(
	db: Db,
	cutoff: string,
	limit: number,
): Promise<Pick<ClipRow, "id" | "edits" | "videoId">[]> {
	return db
		.select({ id: clips.id, edits: clips.edits, videoId: clips.videoId })
		.from(clips)
		.where(and(eq(clips.status, "generating"), sql`${clips.updatedAt} < ${cutoff}`))
		.limit(limit)
		.all();
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
