/** How long the render client keeps trying a lost connection or a busy tier (render-client.ts), and the operator's vars for it. */

/**
 * How the client rides out a lost connection (a reset, a cut mid-request or mid-stream, a tier
 * restarting) and a busy tier: the job is sent again on a fresh connection after a backoff. The tier
 * keys jobs by their request (containers/render job-key.ts), so the same job sent again joins the
 * one still running, or gets the result of the one that finished, instead of running twice.
 */
export interface RetryPolicy {
	/** Lost connections are retried for this long since the tier last said anything (RENDER_RECONNECT_SECONDS). */
	reconnectForMs: number;
	/** A busy tier (503 `busy`) is asked again for this long, after its Retry-After (RENDER_BUSY_WAIT_SECONDS). */
	busyWaitMs: number;
	/**
	 * Connections lost after the tier had said something (it was up, then the job's stream was cut
	 * or the tier died) are tried again this many times at most: a job that kills its instance
	 * each time must not be sent forever.
	 */
	maxCutsAfterEvents: number;
	/** The first backoff; each next one doubles, up to maxDelayMs. */
	firstDelayMs: number;
	maxDelayMs: number;
	/** Sleeps (tests replace it). */
	sleep?: (ms: number) => Promise<void>;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
	reconnectForMs: 120_000,
	busyWaitMs: 10 * 60_000,
	maxCutsAfterEvents: 10,
	firstDelayMs: 250,
	maxDelayMs: 5_000,
};

/** The operator's retry vars (wrangler.toml), in seconds; unset gives DEFAULT_RETRY_POLICY. */
export interface RetryVars {
	RENDER_RECONNECT_SECONDS?: string;
	RENDER_BUSY_WAIT_SECONDS?: string;
}

export function retryPolicyOf(env: RetryVars): RetryPolicy {
	const seconds = (value: string | undefined, fallbackMs: number) => {
		const n = Number(value);
		return value !== undefined && value !== "" && Number.isFinite(n) && n >= 0 ? n * 1000 : fallbackMs;
	};
	const reconnectForMs = seconds(env.RENDER_RECONNECT_SECONDS, DEFAULT_RETRY_POLICY.reconnectForMs);
	return {
		...DEFAULT_RETRY_POLICY,
		reconnectForMs,
		busyWaitMs: seconds(env.RENDER_BUSY_WAIT_SECONDS, DEFAULT_RETRY_POLICY.busyWaitMs),
		// A short budget (tests) backs off in proportion, so it still gets a few attempts.
		firstDelayMs: Math.min(DEFAULT_RETRY_POLICY.firstDelayMs, reconnectForMs / 8),
		maxDelayMs: Math.min(DEFAULT_RETRY_POLICY.maxDelayMs, Math.max(reconnectForMs / 4, 1)),
	};
}
