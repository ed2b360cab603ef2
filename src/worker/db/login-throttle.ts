/** Sign-in attempts per key (client IP, email): one atomic upsert per attempt, so parallel guesses are each counted. */
import { and, eq, lt, sql, type SQL } from "drizzle-orm";
import { names, type Db } from "./client";
import { loginThrottle } from "./schema";

export interface BackoffRule {
	/** Attempts allowed back to back before the delays start. */
	free: number;
	/** First delay; each further attempt doubles it. */
	baseMs: number;
	maxMs: number;
	/** A key left alone this long starts over. */
	quietMs: number;
}

/**
 * When the next attempt may come after attempt number `n` (SQL over `n`): at once (0) within the
 * free attempts, else `now` plus a delay doubling from `baseMs` up to `maxMs`.
 */
const nextAfter = (n: SQL, rule: BackoffRule, now: number) =>
	sql`(CASE WHEN ${n} <= ${rule.free} THEN 0 ELSE ${now} + MIN(${rule.maxMs}, ${rule.baseMs} * (1 << MIN(30, ${n} - ${rule.free} - 1))) END)`;

/**
 * Counts one attempt for `key`, unless the key is still waiting out its backoff. One statement:
 * concurrent attempts are serialised by D1 and each sees its own count.
 * @returns accepted, or refused with the time the key may try again (unix ms).
 */
export async function countAttempt(
	db: Db,
	key: string,
	rule: BackoffRule,
	now: number,
): Promise<{ accepted: true } | { accepted: false; retryAt: number }> {
	const nonce = crypto.randomUUID();
	const quietCutoff = now - rule.quietMs;
	const t = loginThrottle;
	const waiting = sql`${t.nextAllowedAt} > ${now}`;
	const startsOver = sql`${t.lastAttemptAt} <= ${quietCutoff}`;
	const row = await db.get<{ nonce: string; nextAllowedAt: number }>(sql`
		INSERT INTO ${t} (${names(t.key, t.attempts, t.lastAttemptAt, t.nextAllowedAt, t.nonce)})
		VALUES (${key}, 1, ${now}, ${nextAfter(sql`1`, rule, now)}, ${nonce})
		ON CONFLICT(${names(t.key)}) DO UPDATE SET
			${names(t.attempts)} = CASE WHEN ${waiting} THEN ${t.attempts} WHEN ${startsOver} THEN 1 ELSE ${t.attempts} + 1 END,
			${names(t.nextAllowedAt)} = CASE WHEN ${waiting} THEN ${t.nextAllowedAt}
				WHEN ${startsOver} THEN ${nextAfter(sql`1`, rule, now)}
				ELSE ${nextAfter(sql`(${t.attempts} + 1)`, rule, now)} END,
			${names(t.lastAttemptAt)} = CASE WHEN ${waiting} THEN ${t.lastAttemptAt} ELSE ${now} END,
			${names(t.nonce)} = CASE WHEN ${waiting} THEN ${t.nonce} ELSE ${nonce} END
		RETURNING ${names(t.nonce)}, ${names(t.nextAllowedAt)} AS nextAllowedAt`);
	if (row?.nonce === nonce) return { accepted: true };
	return { accepted: false, retryAt: row?.nextAllowedAt ?? now + rule.baseMs };
}

/** A successful sign-in: the key starts over (its owner proved who they are). */
export async function forgetKey(db: Db, key: string): Promise<void> {
	await db.delete(loginThrottle).where(eq(loginThrottle.key, key));
}

/** A successful sign-in from a shared key (an IP): its own attempt no longer counts against the others. */
export async function uncountAttempt(db: Db, key: string): Promise<void> {
	await db
		.update(loginThrottle)
		.set({ attempts: sql`MAX(0, ${loginThrottle.attempts} - 1)` })
		.where(eq(loginThrottle.key, key));
}

/** Keys quiet for longer than `quietMs` and not waiting: nothing left to remember. */
export async function purgeQuietKeys(db: Db, quietMs: number, now: number): Promise<number> {
	const result = await db
		.delete(loginThrottle)
		.where(and(lt(loginThrottle.lastAttemptAt, now - quietMs), lt(loginThrottle.nextAllowedAt, now)))
		.run();
	return result.meta.changes;
}
