/**
 * D1's transient errors, and which queries are tried again after one. D1's error list
 * (https://developers.cloudflare.com/d1/observability/debug-d1/#error-list) says to retry a lost
 * network connection, a database object reset (its code updated, its storage restarted, a timeout)
 * and a remote node's transient issue, and to spread load when it is overloaded; its retry guide
 * (https://developers.cloudflare.com/d1/best-practices/retry-queries/) says to retry with
 * exponential backoff and jitter, and only what is idempotent. D1 itself retries read-only queries
 * twice (https://developers.cloudflare.com/d1/platform/release-notes/, 2025-09-11).
 *
 * So: a read-only execution (every statement SELECT, WITH or EXPLAIN) is retried here, at the data
 * layer's seam (client.ts), with backoff. A write is not, unless its caller says its writes are
 * idempotent (`retryIdempotent`): whether it committed before the error is unknown, so only its
 * caller can tell whether trying again is safe. The workflow's steps say so (steps/run.ts): every
 * write a step makes is safe to apply twice (guarded status writes, refunds at most once per id,
 * clips replaced whole, keyed rows whose second insert conflicts), which is what lets a step be
 * retried whole; so one of them is tried again alone, instead of its step failing at the first
 * lost answer (a step of many writes failed every try at 2% per statement in the soak). The API's
 * few writes that matter retry with `retryWrite` and a check of whether the first try landed.
 */
import { isTransientD1Error } from "../lib/d1-transient";
import type { D1Interceptor } from "./d1-intercept";

const WRITES = /\b(insert|update|delete|replace|create|drop|alter|pragma|vacuum|attach|reindex)\b/i;

/** A statement that cannot write: SELECT, WITH or EXPLAIN, with no writing keyword anywhere in it. */
export function isReadOnlySql(sql: string): boolean {
	return /^\s*(select|with|explain)\b/i.test(sql) && !WRITES.test(sql);
}

/** Pauses before the 2nd, 3rd and 4th tries (each ±50 %): under a second and a half at worst. */
export const D1_RETRY_DELAYS_MS = [50, 200, 800] as const;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms * (0.5 + Math.random())));

/** An interceptor that tries an execution again on a transient error when `retried(sql)` says so. */
function retryTransient(retried: (sql: readonly string[]) => boolean): D1Interceptor {
	return async (sql, execute) => {
		for (let attempt = 0; ; attempt++) {
			try {
				return await execute();
			} catch (error) {
				if (attempt >= D1_RETRY_DELAYS_MS.length || !isTransientD1Error(error) || !retried(sql)) throw error;
				await pause(D1_RETRY_DELAYS_MS[attempt]!);
			}
		}
	};
}

/** The seam's production interceptor: read-only executions tried again on a transient error. */
export const retryReads: D1Interceptor = retryTransient((sql) => sql.every(isReadOnlySql));

/** For a caller whose every write is idempotent (the workflow's steps): any execution tried again. */
export const retryIdempotent: D1Interceptor = retryTransient(() => true);

/**
 * A write tried again on a transient error, when the caller can tell whether an earlier try
 * committed: `landed()` is asked before each new try (and its answer returned when it has one), so
 * a write whose answer was lost is never applied twice.
 * @example await retryWrite(() => createChargedVideo(db, video), async () => (await findVideoById(db, video.id)) ? true : undefined)
 */
export async function retryWrite<T>(write: () => Promise<T>, landed: () => Promise<T | undefined>): Promise<T> {
	for (let attempt = 0; ; attempt++) {
		try {
			return await write();
		} catch (error) {
			if (attempt >= D1_RETRY_DELAYS_MS.length || !isTransientD1Error(error)) throw error;
			await pause(D1_RETRY_DELAYS_MS[attempt]!);
			const earlier = await landed();
			if (earlier !== undefined) return earlier;
		}
	}
}
