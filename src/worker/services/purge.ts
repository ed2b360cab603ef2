/**
 * The cron's housekeeping: sessions past their expiry, idempotency keys past their 24 h, and
 * sign-in backoff keys left quiet, so none of these tables only ever grows.
 */
import { purgeExpiredSessions } from "../db/access";
import { getDb } from "../db/client";
import { purgeIdempotencyKeys } from "../db/idempotency";
import { purgeQuietKeys } from "../db/login-throttle";
import { IDEMPOTENCY_TTL_SECONDS } from "./idempotency";
import { LOGIN_QUIET_MS } from "./login-throttle";

export interface PurgeReport {
	sessions: number;
	idempotencyKeys: number;
	loginKeys: number;
}

export async function purgeExpired(env: Pick<Env, "DB">, now = Date.now()): Promise<PurgeReport> {
	const db = getDb(env);
	const report = {
		sessions: await purgeExpiredSessions(db, new Date(now).toISOString()),
		idempotencyKeys: await purgeIdempotencyKeys(db, new Date(now - IDEMPOTENCY_TTL_SECONDS * 1000).toISOString()),
		loginKeys: await purgeQuietKeys(db, LOGIN_QUIET_MS, now),
	};
	if (report.sessions + report.idempotencyKeys + report.loginKeys > 0) console.log(JSON.stringify({ event: "purge", ...report }));
	return report;
}
