/**
 * Cloudflare's limits the local stand-ins do not enforce, as numbers the tests check against
 * (docs/limits.md lists each with its source and the test that checks it). Paid plan figures;
 * the Free plan's, where they differ, beside them.
 */
export const D1_LIMITS = {
	/** https://developers.cloudflare.com/d1/platform/limits/ : "Maximum bound parameters per query". */
	boundParameters: 100,
	/** "Maximum SQL statement length": 100,000 bytes. */
	statementBytes: 100_000,
	/** "Maximum string, BLOB or table row size": 2,000,000 bytes (a bound value is the part the code controls). */
	valueBytes: 2_000_000,
	/** "Maximum number of queries per Worker invocation" (Free: 50). */
	queriesPerInvocation: 1_000,
	queriesPerInvocationFree: 50,
} as const;

export const WORKFLOW_LIMITS = {
	/** https://developers.cloudflare.com/workflows/reference/limits/ : a step's non-stream result, and an event's payload. */
	stepResultBytes: 1024 ** 2,
	/** Steps per instance on Workers Paid by default (configurable to 25,000); 1,024 on Free. */
	stepsPerInstance: 10_000,
	stepsPerInstanceFree: 1_024,
} as const;

/**
 * Calls to storage services from one invocation (https://developers.cloudflare.com/kv/platform/limits/:
 * "up to 1,000 operations to external services, for example 500 Workers KV reads and 500 R2 reads").
 * Subrequests in all are 10,000 per request on Workers Paid, 50 on Free (Workers limits page).
 */
export const R2_OPS_PER_INVOCATION = 1_000;
