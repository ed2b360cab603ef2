/**
 * Processing slots: how many videos of a workspace may be processing at once. A video holds a slot
 * from the moment it claims one (`slot_claimed_at`) for as long as its status is a processing
 * stage; finishing, failing or being deleted gives the slot back with no write of its own. A video
 * asked to process while its workspace's slots are taken waits (status `downloading`,
 * `slot_claimed_at` null) in the order processing was asked for (`started_at`, then id).
 */
import { and, asc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { PROCESSING_STAGES } from "@clipforge/domain";
import { NOW, type Db } from "./client";
import { videos } from "./schema";

const processing = (v: typeof videos) => inArray(v.status, [...PROCESSING_STAGES]);
/** Videos of the workspace processing (p), holding a slot (h), waiting (w), waiting ahead (a) of one (me). */
const [p, h, w, a, me] = ["p", "h", "w", "a", "me"].map((name) => alias(videos, name)) as [
	typeof videos,
	typeof videos,
	typeof videos,
	typeof videos,
	typeof videos,
];
/** `FROM videos AS x` inside `sql` (an alias alone renders as its name). */
const from = (x: typeof videos) => sql`${videos} ${x}`;

/** Videos of the workspace holding a slot. */
const holders = (workspaceId: string) =>
	sql`(SELECT COUNT(*) FROM ${from(h)} WHERE ${h.workspaceId} = ${workspaceId} AND ${processing(h)} AND ${h.slotClaimedAt} IS NOT NULL)`;

/** Videos of the workspace processing or waiting to: what a reprocess must fit under (db/reprocesses.ts). */
export const processingCount = (workspaceId: string) =>
	sql`(SELECT COUNT(*) FROM ${from(p)} WHERE ${p.workspaceId} = ${workspaceId} AND ${processing(p)})`;

/** Videos of the workspace waiting for a slot. */
export const waitingCount = (workspaceId: string) =>
	sql`(SELECT COUNT(*) FROM ${from(w)} WHERE ${w.workspaceId} = ${workspaceId} AND ${processing(w)} AND ${w.slotClaimedAt} IS NULL)`;

/** Videos of the workspace waiting for a slot that asked before `videoId` did. */
const waitingAhead = (workspaceId: string, videoId: string) => sql`(SELECT COUNT(*) FROM ${from(a)}, ${from(me)}
	WHERE ${me.id} = ${videoId} AND ${a.workspaceId} = ${workspaceId} AND ${processing(a)} AND ${a.slotClaimedAt} IS NULL
	AND (${a.startedAt} < ${me.startedAt} OR (${a.startedAt} = ${me.startedAt} AND ${a.id} < ${me.id})))`;

/**
 * For a row of `videos` in a query: its place in its workspace's line (1 = next to start) while it
 * waits for a slot (`downloading`, none claimed), else null. The status poll reads it with the row,
 * in the same query.
 */
export const queuePositionOfRow = sql`CASE WHEN ${videos.status} = ${"downloading"} AND ${videos.slotClaimedAt} IS NULL THEN 1 + (SELECT COUNT(*) FROM ${from(a)}
	WHERE ${a.workspaceId} = ${videos.workspaceId} AND ${processing(a)} AND ${a.slotClaimedAt} IS NULL
	AND (${a.startedAt} < ${videos.startedAt} OR (${a.startedAt} = ${videos.startedAt} AND ${a.id} < ${videos.id}))) END`;

/**
 * The statement that gives `videoId` a slot if one is free for it: fewer than `limit` videos hold
 * one and wait ahead of it. One UPDATE, so concurrent claims (D1 runs them one at a time) can
 * never hand out more than `limit`.
 */
export function claimSlotStatement(videoId: string, workspaceId: string, limit: number): SQL {
	const { id, slotClaimedAt } = videos;
	return sql`UPDATE ${videos} SET ${sql.identifier(slotClaimedAt.name)} = ${NOW}, ${sql.identifier(videos.updatedAt.name)} = ${NOW}
		WHERE ${id} = ${videoId} AND ${slotClaimedAt} IS NULL AND ${processing(videos)}
		AND ${holders(workspaceId)} + ${waitingAhead(workspaceId, videoId)} < ${limit}`;
}

export type SlotState = "claimed" | "waiting" | "finished";

/** Claims a slot for the video if one is free for it; also marks a waiting video as alive (for the reconciler). */
export async function claimSlot(db: Db, videoId: string, workspaceId: string, limit: number): Promise<SlotState> {
	await db.run(claimSlotStatement(videoId, workspaceId, limit));
	const row = await db
		.select({ status: videos.status, claimed: videos.slotClaimedAt })
		.from(videos)
		.where(eq(videos.id, videoId))
		.get();
	if (!row || !(PROCESSING_STAGES as readonly string[]).includes(row.status)) return "finished";
	if (row.claimed) return "claimed";
	await db
		.update(videos)
		.set({ updatedAt: NOW })
		.where(and(eq(videos.id, videoId), isNull(videos.slotClaimedAt)));
	return "waiting";
}

/** 1 for the next video to get a slot, 2 for the one after …; null when it is not waiting. */
export async function queuePosition(db: Db, videoId: string, workspaceId: string): Promise<number | null> {
	const waiting = and(eq(videos.id, videoId), processing(videos), isNull(videos.slotClaimedAt));
	const row = await db.get<{ waiting: number; ahead: number }>(
		sql`SELECT (SELECT COUNT(*) FROM ${videos} WHERE ${waiting}) AS waiting, ${waitingAhead(workspaceId, videoId)} AS ahead`,
	);
	return row && row.waiting > 0 ? row.ahead + 1 : null;
}

/** The first `count` waiting videos of the workspace, in queue order. */
export async function nextWaiting(db: Db, workspaceId: string, count: number): Promise<string[]> {
	const rows = await db
		.select({ id: videos.id })
		.from(videos)
		.where(and(eq(videos.workspaceId, workspaceId), processing(videos), isNull(videos.slotClaimedAt)))
		.orderBy(asc(videos.startedAt), asc(videos.id))
		.limit(count)
		.all();
	return rows.map((r) => r.id);
}

export async function waitingVideos(db: Db, workspaceId: string): Promise<number> {
	return (await db.get<{ n: number }>(sql`SELECT ${waitingCount(workspaceId)} AS n`))?.n ?? 0;
}

export async function processingVideos(db: Db, workspaceId: string): Promise<number> {
	return (await db.get<{ n: number }>(sql`SELECT ${processingCount(workspaceId)} AS n`))?.n ?? 0;
}
