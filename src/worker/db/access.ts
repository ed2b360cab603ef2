/**
 * The credentials aggregate: users, their memberships, browser sessions and API keys. Only SHA-256
 * hashes of keys and session tokens are stored.
 */
import { and, desc, eq, gt, inArray, isNull, lte, sql } from "drizzle-orm";
import { names, runBatch, type Db } from "./client";
import type { MembershipRole } from "@clipforge/domain";
import { apiKeys, memberships, sessions, users } from "./schema";

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export function findUserByEmail(db: Db, email: string) {
	return db.select().from(users).where(eq(users.email, email)).get();
}

/** The user's memberships: workspace id → role. */
export async function rolesOfUser(db: Db, userId: string): Promise<Record<string, MembershipRole>> {
	const rows = await db
		.select({ workspaceId: memberships.workspaceId, role: memberships.role })
		.from(memberships)
		.where(eq(memberships.userId, userId))
		.all();
	return Object.fromEntries(rows.map((r) => [r.workspaceId, r.role]));
}

export async function createSession(
	db: Db,
	session: { id: string; tokenHash: string; userId: string; expiresAt: string },
): Promise<void> {
	await db.insert(sessions).values(session);
}

/** A session that has not expired, by the hash of its token. */
export function findLiveSession(db: Db, tokenHash: string) {
	return db
		.select({ id: sessions.id, userId: sessions.userId })
		.from(sessions)
		.where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, new Date().toISOString())))
		.get();
}

export async function deleteSession(db: Db, tokenHash: string): Promise<void> {
	await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}

export function findUserById(db: Db, userId: string) {
	return db.select().from(users).where(eq(users.id, userId)).get();
}

/**
 * Sets a user's password hash and ends every session of theirs in the same batch (a stolen
 * session must not outlive the password it was opened with); `keep` is opened in its place.
 */
export async function changePassword(
	db: Db,
	userId: string,
	passwordHash: string,
	keep: { id: string; tokenHash: string; expiresAt: string },
): Promise<void> {
	await db.batch([
		db.update(users).set({ passwordHash }).where(eq(users.id, userId)),
		db.delete(sessions).where(eq(sessions.userId, userId)),
		db.insert(sessions).values({ ...keep, userId }),
	]);
}

/** Sessions past their expiry (the cron). */
export async function purgeExpiredSessions(db: Db, now: string): Promise<number> {
	return (await db.delete(sessions).where(lte(sessions.expiresAt, now)).run()).meta.changes;
}

/** A key that was not revoked, by the hash of the key. */
export function findActiveKey(db: Db, keyHash: string) {
	return db
		.select({ id: apiKeys.id, workspaceId: apiKeys.workspaceId, lastUsedAt: apiKeys.lastUsedAt })
		.from(apiKeys)
		.where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)))
		.get();
}

export async function stampKeyUsed(db: Db, keyId: string, at: string): Promise<void> {
	await db.update(apiKeys).set({ lastUsedAt: at }).where(eq(apiKeys.id, keyId)).run();
}

/**
 * Inserts the key unless its workspace already has `limit` keys not revoked (one statement, so
 * concurrent mints cannot pass the cap together); the new row, or undefined when refused.
 */
export async function createKeyWithin(
	db: Db,
	limit: number,
	key: { id: string; workspaceId: string; name: string; keyHash: string; prefix: string },
): Promise<ApiKeyRow | undefined> {
	const k = apiKeys;
	await runBatch(db, [
		sql`INSERT INTO ${k} (${names(k.id, k.workspaceId, k.name, k.keyHash, k.prefix)})
			SELECT ${key.id}, ${key.workspaceId}, ${key.name}, ${key.keyHash}, ${key.prefix}
			WHERE (SELECT COUNT(*) FROM ${k} WHERE ${k.workspaceId} = ${key.workspaceId} AND ${k.revokedAt} IS NULL) < ${limit}`,
	]);
	return db.select().from(k).where(eq(k.id, key.id)).get();
}

export async function activeKeyCount(db: Db, workspaceId: string): Promise<number> {
	const [row] = await db
		.select({ n: sql<number>`COUNT(*)` })
		.from(apiKeys)
		.where(and(eq(apiKeys.workspaceId, workspaceId), isNull(apiKeys.revokedAt)));
	return row?.n ?? 0;
}

export function keysOf(db: Db, workspaceIds: string[]): Promise<ApiKeyRow[]> {
	return db
		.select()
		.from(apiKeys)
		.where(inArray(apiKeys.workspaceId, workspaceIds))
		.orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
		.all();
}

/** A key of one of these workspaces, or undefined. */
export function findKey(db: Db, id: string, workspaceIds: string[]): Promise<ApiKeyRow | undefined> {
	return db
		.select()
		.from(apiKeys)
		.where(and(eq(apiKeys.id, id), inArray(apiKeys.workspaceId, workspaceIds)))
		.get();
}

/** Revokes the key (once) if it belongs to one of these workspaces; the key as it is now, or undefined. */
export async function revokeKey(db: Db, id: string, workspaceIds: string[]): Promise<ApiKeyRow | undefined> {
	const scope = and(eq(apiKeys.id, id), inArray(apiKeys.workspaceId, workspaceIds));
	await db
		.update(apiKeys)
		.set({ revokedAt: new Date().toISOString() })
		.where(and(scope, isNull(apiKeys.revokedAt)));
	return db.select().from(apiKeys).where(scope).get();
}
