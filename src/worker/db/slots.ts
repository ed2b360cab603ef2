/**
 * Processing slots: how many videos of a workspace may be processing at once. A video holds a slot
 * from the moment it claims one (`slot_claimed_at`) for as long as its status is a processing
 * stage; finishing, failing or being deleted gives the slot back with no write of its own. A video
 * asked to process while its workspace's slots are taken waits (status `downloading`,
 * `slot_claimed_at` null) in the order processing was asked for (`started_at`, then id).
 */
import { sql, type SQL } from "drizzle-orm";
import { PROCESSING_STAGES } from "../domain/video-status";
import type { Db } from "./client";

const NOW = sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;
const PROCESSING = sql.join(PROCESSING_STAGES.map((s) => sql`${s}`), sql`, `);

/** Videos of the workspace holding a slot. */
const holders = (workspaceId: string) =>
	sql`(SELECT COUNT(*) FROM videos h WHERE h.workspace_id = ${workspaceId} AND h.status IN (${PROCESSING}) AND h.slot_claimed_at IS NOT NULL)`;

/** Videos of the workspace processing or waiting to: what a reprocess must fit under (db/reprocesses.ts). */
export const processingCount = (workspaceId: string) =>
	sql`(SELECT COUNT(*) FROM videos p WHERE p.workspace_id = ${workspaceId} AND p.status IN (${PROCESSING}))`;

/** Videos of the workspace waiting for a slot. */
export const waitingCount = (workspaceId: string) =>
	sql`(SELECT COUNT(*) FROM videos w WHERE w.workspace_id = ${workspaceId} AND w.status IN (${PROCESSING}) AND w.slot_claimed_at IS NULL)`;

/** Videos of the workspace waiting for a slot that asked before `videoId` did. */
const waitingAhead = (workspaceId: string, videoId: string) => sql`(SELECT COUNT(*) FROM videos a, videos me
	WHERE me.id = ${videoId} AND a.workspace_id = ${workspaceId} AND a.status IN (${PROCESSING}) AND a.slot_claimed_at IS NULL
	AND (a.started_at < me.started_at OR (a.started_at = me.started_at AND a.id < me.id)))`;

/**
 * For a row of `videos` in a query: its place in its workspace's line (1 = next to start) while it
 * waits for a slot (`downloading`, none claimed), else null. The status poll reads it with the row,
 * in the same query.
 */
export const queuePositionOfRow = sql`CASE WHEN videos.status = 'downloading' AND videos.slot_claimed_at IS NULL THEN 1 + (SELECT COUNT(*) FROM videos a
	WHERE a.workspace_id = videos.workspace_id AND a.status IN (${PROCESSING}) AND a.slot_claimed_at IS NULL
	AND (a.started_at < videos.started_at OR (a.started_at = videos.started_at AND a.id < videos.id))) END`;

/**
 * The statement that gives `videoId` a slot if one is free for it: fewer than `limit` videos hold
 * one and wait ahead of it. One UPDATE, so concurrent claims (D1 runs them one at a time) can
 * never hand out more than `limit`.
 */
export function claimSlotStatement(videoId: string, workspaceId: string, limit: number): SQL {
	return sql`UPDATE videos SET slot_claimed_at = ${NOW}, updated_at = ${NOW}
		WHERE id = ${videoId} AND slot_claimed_at IS NULL AND status IN (${PROCESSING})
		AND ${holders(workspaceId)} + ${waitingAhead(workspaceId, videoId)} < ${limit}`;
}

export type SlotState = "claimed" | "waiting" | "finished";

/** Claims a slot for the video if one is free for it; also marks a waiting video as alive (for the reconciler). */
export async function claimSlot(db: Db, videoId: string, workspaceId: string, limit: number): Promise<SlotState> {
	await db.run(claimSlotStatement(videoId, workspaceId, limit));
	const row = await db.get<{ status: string; claimed: string | null }>(sql`SELECT status, slot_claimed_at AS claimed FROM videos WHERE id = ${videoId}`);
	if (!row || !(PROCESSING_STAGES as readonly string[]).includes(row.status)) return "finished";
	if (row.claimed) return "claimed";
	await db.run(sql`UPDATE videos SET updated_at = ${NOW} WHERE id = ${videoId} AND slot_claimed_at IS NULL`);
	return "waiting";
}

/** 1 for the next video to get a slot, 2 for the one after …; null when it is not waiting. */
export async function queuePosition(db: Db, videoId: string, workspaceId: string): Promise<number | null> {
	const row = await db.get<{ waiting: number; ahead: number }>(sql`SELECT
		(SELECT COUNT(*) FROM videos WHERE id = ${videoId} AND status IN (${PROCESSING}) AND slot_claimed_at IS NULL) AS waiting,
		${waitingAhead(workspaceId, videoId)} AS ahead`);
	return row && row.waiting > 0 ? row.ahead + 1 : null;
}

/** The first `count` waiting videos of the workspace, in queue order. */
export async function nextWaiting(db: Db, workspaceId: string, count: number): Promise<string[]> {
	const rows = await db.all<{ id: string }>(sql`SELECT id FROM videos WHERE workspace_id = ${workspaceId} AND status IN (${PROCESSING}) AND slot_claimed_at IS NULL
		ORDER BY started_at, id LIMIT ${count}`);
	return rows.map((r) => r.id);
}

export async function waitingVideos(db: Db, workspaceId: string): Promise<number> {
	return (await db.get<{ n: number }>(sql`SELECT ${waitingCount(workspaceId)} AS n`))?.n ?? 0;
}

export async function processingVideos(db: Db, workspaceId: string): Promise<number> {
	return (await db.get<{ n: number }>(sql`SELECT ${processingCount(workspaceId)} AS n`))?.n ?? 0;
}
