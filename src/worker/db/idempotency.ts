/** Idempotency keys of submissions: reserved by the first request, then holding its response for 24 h. */
import { and, eq, isNull, lt, or } from "drizzle-orm";
import { NOW, type Db } from "./client";
import { idempotencyKeys } from "./schema";

const byKey = (workspaceId: string, key: string) =>
	and(eq(idempotencyKeys.workspaceId, workspaceId), eq(idempotencyKeys.key, key));

/**
 * Reserves the key in one statement: a new key is inserted; a used one is taken over only if it was
 * used before `cutoff`, or reserved before `abandonedCutoff` and never answered (its request died
 * between the two: a lost D1 answer, an isolate gone). @returns true when this request holds it.
 */
export async function reserveKey(
	db: Db,
	workspaceId: string,
	key: string,
	requestHash: string,
	cutoff: string,
	abandonedCutoff: string,
): Promise<boolean> {
	const k = idempotencyKeys;
	const abandoned = and(isNull(k.responseStatus), lt(k.createdAt, abandonedCutoff));
	const reserved = await db
		.insert(k)
		.values({ workspaceId, key, requestHash })
		.onConflictDoUpdate({
			target: [k.workspaceId, k.key],
			// What a fresh reservation holds: this request's hash, no response, created now.
			set: { requestHash, responseStatus: null, responseBody: null, createdAt: NOW },
			setWhere: or(lt(k.createdAt, cutoff), abandoned),
		})
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
