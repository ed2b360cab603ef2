/**
 * Reads paid for in batches. READ_LIMITER counts one call of its `limit()` as READ_BATCH reads
 * (wrangler.toml gives it READ_LIMIT.reads / READ_BATCH a period): this isolate pays for a batch
 * before it answers the batch's first read, answers the next ones from what it has paid without a
 * call, and keeps a whole batch paid ahead (the next is paid for in the background).
 *
 * Why: under `wrangler dev` one `limit()` call is a Durable Object writing SQLite, as much work as
 * the status poll it guards; in production it is a counter in memory, and one call in ten costs
 * less still. Every read is counted, before it is answered:
 * - Reads answered across all isolates never exceed what the binding granted (READ_LIMIT.reads a
 *   period); one isolate answers exactly READ_LIMIT.reads (the 601st read of a minute is a 429).
 * - A workspace read from many isolates at once may be refused up to 2 × READ_BATCH - 1 reads
 *   early per isolate: each may hold paid reads it has not used when the period ends (they lapse).
 */
/** Keys an isolate remembers; the least recently read is forgotten first (its next read pays again). */
export const MAX_KEYS = 5_000;

/** What API.md promises: reads per period, per workspace (API keys) or per signed-in person. */
export const READ_LIMIT = { reads: 600, periodSeconds: 60 } as const;

/** Reads one READ_LIMITER call pays for (READ_LIMIT.reads is a multiple of it). */
export const READ_BATCH = 10;

/** How a request pays: one batch of `key`'s reads (true when the binding grants it), and keeping a payment it does not wait for alive. */
export interface Payer {
	pay(key: string): Promise<boolean>;
	inBackground(payment: Promise<unknown>): void;
}

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

	/** Takes one read of `key`: true now from a paid batch, else a promise of the next payment's verdict. */
	take(key: string, payer: Payer): true | Promise<boolean> {
		const state = this.stateOf(key);
		if (state.used < state.paid) return this.use(key, state, payer);
		return this.takeAfterPaying(key, payer);
	}

	/** Pays (or waits for the payment in flight) until a paid read is free, or a payment is refused. */
	private async takeAfterPaying(key: string, payer: Payer): Promise<boolean> {
		for (;;) {
			const state = this.stateOf(key);
			if (state.used < state.paid) return this.use(key, state, payer);
			if (!(await (state.paying ?? this.payFor(key, state, payer)))) return false;
		}
	}

	/**
	 * Answers a read from what is paid, keeping a whole batch paid ahead: polls arrive in bursts (a
	 * client's timers, a proxy's queue), and a burst that used up what was paid would wait.
	 */
	private use(key: string, state: KeyState, payer: Payer): true {
		state.used += 1;
		if (state.paid - state.used < this.batch && state.paying === null)
			payer.inBackground(this.payFor(key, state, payer).catch(() => undefined));
		return true;
	}

	private payFor(key: string, state: KeyState, payer: Payer): Promise<boolean> {
		const payment = payer
			.pay(key)
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
