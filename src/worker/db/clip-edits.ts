/**
 * A clip's edit, from start to finish or failure, and the changes that need no render. An edit's
 * status moves are guarded UPDATEs: it starts only from a `completed` clip of a `completed` video,
 * and only the edit that is running (its number) may finish or fail it, so a repeated workflow step
 * is a no-op.
 */
import { and, eq, exists, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { CaptionFix } from "../domain/clip-edit";
import { removedSeconds } from "../domain/silences";
import { AFTER_CHANGE, NOW, runBatch, type Db } from "./client";
import type { ClipRow, RenderedClipFiles } from "./clips";
import { clips, videos } from "./schema";

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
