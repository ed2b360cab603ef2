/**
 * Reads paid for in batches. READ_LIMITER counts one call of its `limit()` as READ_BATCH reads
 * (wrangler.toml gives it READ_LIMIT.reads / READ_BATCH a period): this isolate pays for a batch
 * before it answers the batch's first read, answers the next ones from what it has paid without a
 * call, and pays for the next batch in the background once half of the current one is used.
 *
 * Why: under `wrangler dev` one `limit()` call is a Durable Object writing SQLite, as much work as
 * the status poll it guards; in production it is a counter in memory, and one call in ten costs
 * less still. Every read is counted, before it is answered:
 * - Reads answered across all isolates never exceed what the binding granted (READ_LIMIT.reads a
 *   period); one isolate answers exactly READ_LIMIT.reads (the 601st read of a minute is a 429).
 * - A workspace read from many isolates at once may be refused up to READ_BATCH - 1 reads early
 *   per isolate: each may hold a paid batch it has not used when the period ends (not carried over).
 */
export const MAX_KEYS = 5_000;

/** What API.md promises: reads per period, per workspace (API keys) or per signed-in person. */
export const READ_LIMIT = { reads: 600, periodSeconds: 60 } as const;

/** Reads one READ_LIMITER call pays for (READ_LIMIT.reads is a multiple of it). */
export const READ_BATCH = 10;

/** Pays for one batch of `key`'s reads: true when the binding grants it. */
export type PayForBatch = (key: string) => Promise<boolean>;

/** A read's answer: now (paid already), or once a payment says whether it may be. */
export type ReadTake = { now: true; prepaying: Promise<boolean> | null } | { now: false; verdict: Promise<boolean> };

interface KeyState {
	/** The window (wall-clock multiples of the period, as the binding aligns them) being paid for. */
	window: number;
	/** Reads paid for in that window, and reads answered from them. */
	paid: number;
	used: number;
	/** The payment in flight for the key, shared by every read waiting on it. */
	paying: Promise<boolean> | null;
}

export class ReadAllowances {
	private readonly keys = new Map<string, KeyState>();

	constructor(
		private readonly batch: number,
		private readonly periodMs: number,
		private readonly clock: () => number = Date.now,
	) {}

	/** Takes one read of `key`: answered now from a paid batch, or after `pay` grants another. */
	take(key: string, pay: PayForBatch): ReadTake {
		const state = this.stateOf(key);
		if (state.used < state.paid) {
			state.used += 1;
			const low = state.paid - state.used <= this.batch / 2 && state.paying === null;
			return { now: true, prepaying: low ? this.payFor(key, state, pay) : null };
		}
		return { now: false, verdict: this.takeAfterPaying(key, pay) };
	}

	/** Pays (or waits for the payment in flight) until a paid read is free, or a payment is refused. */
	private async takeAfterPaying(key: string, pay: PayForBatch): Promise<boolean> {
		for (;;) {
			const state = this.stateOf(key);
			if (state.used < state.paid) {
				state.used += 1;
				return true;
			}
			if (!(await (state.paying ?? this.payFor(key, state, pay)))) return false;
		}
	}

	private payFor(key: string, state: KeyState, pay: PayForBatch): Promise<boolean> {
		const payment = pay(key)
			.then((granted) => {
				if (granted) state.paid += this.batch;
				return granted;
			})
			.finally(() => {
				if (state.paying === payment) state.paying = null;
			});
		state.paying = payment;
		return payment;
	}

	/** The key's state in the current window (a new window starts unpaid), most recently used last. */
	private stateOf(key: string): KeyState {
		const window = Math.floor(this.clock() / this.periodMs);
		const known = this.keys.get(key);
		const state = known && known.window === window ? known : { window, paid: 0, used: 0, paying: null };
		this.keys.delete(key);
		this.keys.set(key, state);
		if (this.keys.size > MAX_KEYS) this.keys.delete(this.keys.keys().next().value!);
		return state;
	}
}
