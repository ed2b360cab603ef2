/**
 * The local rate limiters (Miniflare's) count in fixed windows aligned to the wall clock: every
 * 60 s window starts on the minute, every 10 s one on a multiple of 10 s. A test that counts up to a
 * limit must do it inside one window, or the count starts again halfway and the refusal never comes.
 */

/** Resolves once the current window of `periodSeconds` has at least `neededSeconds` left. */
export async function inOneRateWindow(periodSeconds: 10 | 60, neededSeconds: number): Promise<void> {
	const period = periodSeconds * 1000;
	const left = period - (Date.now() % period);
	if (left < neededSeconds * 1000) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

/** The time a test that waits for a window may take: the longest wait (under 60 s) plus its own work. */
export const RATE_WINDOW_TEST_TIMEOUT = 120_000;
