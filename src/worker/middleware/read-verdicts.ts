/**
 * Which reads may be answered before the rate limiter has counted them. Every read is counted by
 * the READ_LIMITER binding; waiting for its verdict costs nothing in production (its counters live
 * on the machine the Worker runs on) but a Durable Object write per request under `wrangler dev`,
 * as much as the status poll's own read. So a read is answered at once while this isolate knows
 * the key is well within its limit: the binding's last verdict for it was a success, and this
 * isolate has counted fewer reads of it in the current window than the limit. The read is still
 * counted (its verdict is awaited after the answer, and updates the last verdict).
 *
 * In one isolate this refuses exactly what the binding refuses (the 601st read of a minute waits
 * for, and gets, its 429). Across isolates, a key already over the limit elsewhere gets at most
 * the reads this isolate has in flight before its first 429: the binding's own counters are
 * eventually consistent across machines too (Cloudflare: "permissive", not an exact count).
 */
export const MAX_KEYS = 5_000;

/** READ_LIMITER's `simple` in wrangler.toml, in both environments (tools/rate-limits-config.test.ts keeps them equal). */
export const READ_LIMIT = { reads: 600, periodSeconds: 60 } as const;

interface KeyState {
	/** The window (wall-clock multiples of the period, as the binding aligns them) being counted. */
	window: number;
	/** Reads of the key this isolate counted in that window. */
	counted: number;
	/** The binding's last verdict for the key (false until one arrives). */
	lastSuccess: boolean;
}

export class ReadVerdicts {
	private readonly keys = new Map<string, KeyState>();

	constructor(
		private readonly limit: number,
		private readonly periodMs: number,
	) {}

	/** Counts one read of `key`: true when its answer need not wait for the binding's verdict. */
	count(key: string, now = Date.now()): boolean {
		const window = Math.floor(now / this.periodMs);
		const known = this.keys.get(key);
		const state =
			known && known.window === window ? known : { window, counted: 0, lastSuccess: known?.lastSuccess ?? false };
		state.counted += 1;
		this.keys.delete(key);
		this.keys.set(key, state);
		if (this.keys.size > MAX_KEYS) this.keys.delete(this.keys.keys().next().value!);
		return state.lastSuccess && state.counted < this.limit;
	}

	/** The binding's verdict on a read of `key`. */
	record(key: string, success: boolean): void {
		const state = this.keys.get(key);
		if (state) state.lastSuccess = success;
	}
}
