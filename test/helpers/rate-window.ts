/**
 * The local rate limiters (Miniflare's) count in fixed windows aligned to the wall clock: every
 * 60 s window starts on the minute, every 10 s one on a multiple of 10 s. A test that counts up to a
 * limit must do it inside one window, or the count starts again halfway and the refusal never comes.
 */
import { it } from "vitest";

/**
 * Runs a test's count and, only when it failed and a window edge fell while it ran, runs it again
 * (at most three tries): the count straddled the edge and proved nothing. A failure inside one
 * window is a failure. Each try must make its own workspace (or upload), so it counts from zero.
 * Cheaper than waiting for a fresh window first, which cost up to half a minute per test.
 */
export async function countedInOneWindow(periodSeconds: 10 | 60, attempt: () => Promise<void>): Promise<void> {
	const period = periodSeconds * 1000;
	for (let tries = 1; ; tries++) {
		const window = Math.floor(Date.now() / period);
		try {
			return await attempt();
		} catch (error) {
			if (tries >= 3 || Math.floor(Date.now() / period) === window) throw error;
		}
	}
}

/** The time a test counting in one window may take: three tries of its count. */
const RATE_WINDOW_TEST_TIMEOUT = 120_000;

/** A test whose count must fall inside one window: `it`, run by countedInOneWindow. */
export function itCountsInOneWindow(name: string, periodSeconds: 10 | 60, attempt: () => Promise<void>): void {
	it(name, () => countedInOneWindow(periodSeconds, attempt), RATE_WINDOW_TEST_TIMEOUT);
}
