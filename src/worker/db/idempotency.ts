/** Idempotency keys of submissions: reserved by the first request, then holding its response for 24 h. */
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { NOW, type Db } from "./client";
import { idempotencyKeys, videos } from "./schema";

const byKey = (workspaceId: string, key: string) =>
	and(eq(idempotencyKeys.workspaceId, workspaceId), eq(idempotencyKeys.key, key));

/**
 * Reserves the key in one statement: a new key is inserted; a used one is taken over only if it was
 * used before `cutoff`, or reserved before `abandonedCutoff`, never answered and without a video (its
 * request died before charging: a lost D1 answer, an isolate gone). @returns true when this request
 * holds it.
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
	const abandoned = and(isNull(k.responseStatus), isNull(k.videoId), lt(k.createdAt, abandonedCutoff));
	const reserved = await db
		.insert(k)
		.values({ workspaceId, key, requestHash })
		.onConflictDoUpdate({
			target: [k.workspaceId, k.key],
			// What a fresh reservation holds: this request's hash, no response, created now.
			set: { requestHash, responseStatus: null, responseBody: null, videoId: null, createdAt: NOW },
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
			videoId: idempotencyKeys.videoId,
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

/** Frees a key whose request made no video (a key that made one keeps it: a retry answers with that video). */
export async function freeKey(db: Db, workspaceId: string, key: string): Promise<void> {
	await db.delete(idempotencyKeys).where(and(byKey(workspaceId, key), isNull(idempotencyKeys.videoId)));
}

/**
 * For the batch that creates and charges `videoId` (videos.ts `createChargedVideo`): the key names
 * the video, in the same transaction, only once the video's row is written.
 */
export function recordKeyVideoStatement(db: Db, workspaceId: string, key: string, videoId: string) {
	return db
		.update(idempotencyKeys)
		.set({ videoId })
		.where(and(byKey(workspaceId, key), sql`EXISTS (SELECT 1 FROM ${videos} WHERE ${videos.id} = ${videoId})`));
}

/** Keys older than `cutoff`: their 24 h are over (the cron). */
export async function purgeIdempotencyKeys(db: Db, cutoff: string): Promise<number> {
	return (await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, cutoff)).run()).meta.changes;
}
