/** Idempotency keys of submissions: reserved by the first request, then holding its response for 24 h. */
import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { Db } from "./client";
import { idempotencyKeys } from "./schema";

const byKey = (workspaceId: string, key: string) =>
	and(eq(idempotencyKeys.workspaceId, workspaceId), eq(idempotencyKeys.key, key));

/**
 * Forgets the key if it was used before `cutoff`, or reserved before `abandonedCutoff` and never
 * answered (its request died between the two: a lost D1 answer, an isolate gone), then tries to
 * reserve it. @returns true when this request holds it.
 */
export async function reserveKey(
	db: Db,
	workspaceId: string,
	key: string,
	requestHash: string,
	cutoff: string,
	abandonedCutoff: string,
): Promise<boolean> {
	const abandoned = and(isNull(idempotencyKeys.responseStatus), lt(idempotencyKeys.createdAt, abandonedCutoff));
	await db
		.delete(idempotencyKeys)
		.where(and(byKey(workspaceId, key), or(lt(idempotencyKeys.createdAt, cutoff), abandoned)));
	const reserved = await db
		.insert(idempotencyKeys)
		.values({ workspaceId, key, requestHash })
		.onConflictDoNothing()
		.run();
	return reserved.meta.changes === 1;
}

export function storedResponse(db: Db, workspaceId: string, key: string) {
	return db
		.select({
			hash: idempotencyKeys.requestHash,
			status: idempotencyKeys.responseStatus,
			body: idempotencyKeys.responseBody,
		})
		.from(idempotencyKeys)
		.where(byKey(workspaceId, key))
		.get();
}

export async function storeResponse(
	db: Db,
	workspaceId: string,
	key: string,
	status: number,
	body: string,
): Promise<void> {
	await db.update(idempotencyKeys).set({ responseStatus: status, responseBody: body }).where(byKey(workspaceId, key));
}

export async function freeKey(db: Db, workspaceId: string, key: string): Promise<void> {
	await db.delete(idempotencyKeys).where(byKey(workspaceId, key));
}

/** Keys older than `cutoff`: their 24 h are over (the cron). */
export async function purgeIdempotencyKeys(db: Db, cutoff: string): Promise<number> {
	return (await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, cutoff)).run()).meta.changes;
}
