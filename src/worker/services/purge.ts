/**
 * The cron's housekeeping: sessions past their expiry, idempotency keys past their 24 h,
 * sign-in backoff keys left quiet and step timings past STEP_TIMELINE_DAYS, so none of these
 * tables only ever grows.
 */
import { purgeExpiredSessions } from "../db/access";
import { getDb } from "../db/client";
import { logger } from "../lib/log";
import { purgeIdempotencyKeys } from "../db/idempotency";
import { purgeQuietKeys } from "../db/login-throttle";
import { IDEMPOTENCY_TTL_SECONDS } from "./idempotency";
import { LOGIN_QUIET_MS } from "./login-throttle";
import { purgeStepsBefore } from "../db/video-steps";
import { STEP_TIMELINE_DAYS } from "./step-timeline";

export interface PurgeReport {
	sessions: number;
	idempotencyKeys: number;
	loginKeys: number;
	stepTimings: number;
}

export async function purgeExpired(env: Pick<Env, "DB">, now = Date.now()): Promise<PurgeReport> {
	const db = getDb(env);
	const report = {
		sessions: await purgeExpiredSessions(db, new Date(now).toISOString()),
		idempotencyKeys: await purgeIdempotencyKeys(db, new Date(now - IDEMPOTENCY_TTL_SECONDS * 1000).toISOString()),
		loginKeys: await purgeQuietKeys(db, LOGIN_QUIET_MS, now),
		stepTimings: await purgeStepsBefore(db, new Date(now - STEP_TIMELINE_DAYS * 86_400_000).toISOString()),
	};
	if (report.sessions + report.idempotencyKeys + report.loginKeys + report.stepTimings > 0)
		logger().info("purge", report);
	return report;
}
