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
