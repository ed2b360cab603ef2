/**
 * The minutes ledger: every movement of minutes is a ledger row and a workspace's balance equals
 * their sum. This file holds the statements that move minutes; the batches that need them (a
 * video's creation and failure in videos.ts, a reprocess's start and end in reprocesses.ts) put
 * them beside the status change that earns them, guarded on it (`… WHERE (SELECT changes()) = 1`),
 * so a charge cannot overdraw and a refund happens at most once, whichever request or workflow
 * step gets there first.
 */
import { and, eq, gte, sql, type SQL } from "drizzle-orm";
import type { LedgerKind } from "@clipforge/domain";
import { AFTER_CHANGE, names, type Db } from "./client";
import { minutesLedger, videoReprocesses, videos, workspaces } from "./schema";

/**
 * Takes `cost` from the workspace only while its balance covers it and every other guard holds (the
 * UPDATE's own WHERE runs inside the batch's transaction, so concurrent charges never overdraw).
 */
export function debitStatement(db: Db, workspaceId: string, cost: number, guards: SQL[] = []) {
	return db
		.update(workspaces)
		.set({ minutesBalance: sql`${workspaces.minutesBalance} - ${cost}` })
		.where(and(eq(workspaces.id, workspaceId), gte(workspaces.minutesBalance, cost), ...guards));
}

/** A ledger row, written only when `guard` holds (e.g. the statement before it changed a row). */
export function entryStatement(
	entry: { workspaceId: string; key: string; kind: LedgerKind; minutes: number; note: string },
	guard: SQL,
) {
	const l = minutesLedger;
	return sql`INSERT INTO ${l} (${names(l.workspaceId, l.videoId, l.kind, l.minutes, l.note)})
		SELECT ${entry.workspaceId}, ${entry.key}, ${entry.kind}, ${entry.minutes}, ${entry.note} WHERE ${guard}`;
}

/** What can be refunded: a video (its own charge) or a reprocess; both rows say what they were charged. */
type Charged = typeof videos | typeof videoReprocesses;

/**
 * The refund of what a video or reprocess was charged, as two statements: the ledger row (at most
 * one per id: the ledger's unique (video_id, kind) index), then the balance, only if that row was
 * written. With `afterChange`, the row too is written only when the statement before it changed a row.
 */
export function refundStatements(from: Charged, id: string, note: string, options: { afterChange: boolean }): SQL[] {
	const l = minutesLedger;
	const guard = options.afterChange ? sql` AND ${AFTER_CHANGE}` : sql``;
	return [
		sql`INSERT OR IGNORE INTO ${l} (${names(l.workspaceId, l.videoId, l.kind, l.minutes, l.note)})
			SELECT ${from.workspaceId}, ${from.id}, 'refund', ${from.minutesCharged}, ${note.slice(0, 500)} FROM ${from}
			WHERE ${from.id} = ${id} AND ${from.minutesCharged} > 0${guard}`,
		sql`UPDATE ${workspaces} SET ${names(workspaces.minutesBalance)} = ${workspaces.minutesBalance} + (SELECT ${from.minutesCharged} FROM ${from} WHERE ${from.id} = ${id})
			WHERE ${AFTER_CHANGE} AND ${workspaces.id} = (SELECT ${from.workspaceId} FROM ${from} WHERE ${from.id} = ${id})`,
	];
}

export async function balanceOf(db: Db, workspaceId: string): Promise<number> {
	const row = await db
		.select({ balance: workspaces.minutesBalance })
		.from(workspaces)
		.where(eq(workspaces.id, workspaceId))
		.get();
	return row?.balance ?? 0;
}
