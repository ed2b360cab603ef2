/**
 * One Worker invocation may have six outgoing connections waiting for their response headers at
 * once; a seventh is not refused but queued by the runtime until one of the six gets its headers
 * (https://developers.cloudflare.com/workers/platform/limits/#simultaneous-open-connections; since
 * the 2026-04-09 change only that wait counts, not reading the body). A call queued there has not
 * been sent, yet its own timers run: the render client's idle timer would take a render queued
 * behind six Whisper calls for a hung tier, and retry it into the same queue. workerd does not
 * queue locally (test/integration/outgoing-connections.test.ts measures it), so no local test
 * would ever see it.
 *
 * So the calls that may wait long for their first byte (Workers AI, whose answer is its headers,
 * and the render tier, which answers a streamed job's headers at once but only once its container
 * is up) first take one of these slots, in the order they asked, and give it back when the headers
 * are in. Their timers start once they hold a slot. One connection of the six is left to R2 and
 * the others' short calls, so those never wait behind a slow one.
 */

/** Connections of one invocation that may wait for response headers at once (Workers Paid and Free alike). */
export const OUTGOING_CONNECTIONS = 6;
/** Slots for slow calls: all but one, which storage calls keep. */
export const SLOW_CALL_SLOTS = OUTGOING_CONNECTIONS - 1;

export class OutgoingSlots {
	readonly size: number;
	private held = 0;
	private readonly waiting: (() => void)[] = [];
	/** What happened so far: the most held at once, and how many calls had to wait for a slot. */
	readonly seen = { mostHeld: 0, waited: 0 };

	constructor(size: number = SLOW_CALL_SLOTS) {
		if (!Number.isInteger(size) || size < 1)
			throw new Error(`OutgoingSlots: size must be a positive integer, not ${size}`);
		this.size = size;
	}

	/** Waits for a slot (first come, first served); call the returned function once, when the headers are in. */
	async acquire(): Promise<() => void> {
		if (this.held >= this.size) {
			this.seen.waited++;
			await new Promise<void>((resolve) => this.waiting.push(resolve));
		} else {
			this.held++;
		}
		this.seen.mostHeld = Math.max(this.seen.mostHeld, this.held);
		let released = false;
		return () => {
			if (released) return;
			released = true;
			// A waiting call takes the slot over directly, so no newcomer can overtake it.
			const next = this.waiting.shift();
			if (next) next();
			else this.held--;
		};
	}

	/** `call` once a slot is free; the slot is given back when it settles (a fetch settles at its headers). */
	async hold<T>(call: () => Promise<T>): Promise<T> {
		const release = await this.acquire();
		try {
			return await call();
		} finally {
			release();
		}
	}
}

const SLOTS = Symbol.for("clipforge.outgoingSlots");

type AiLike = { run(...args: unknown[]): Promise<unknown> };

/**
 * `env` whose Workers AI calls take a slot of `slots`, and which hands `slots` to the render
 * client (outgoingSlotsOf). Every other binding is the same object.
 */
export function withOutgoingSlots<E extends object>(env: E, slots: OutgoingSlots): E {
	const ai = (env as { AI?: AiLike }).AI;
	const gatedAi: AiLike | undefined = ai && {
		run: (...args: unknown[]) => slots.hold(() => ai.run(...args)),
	};
	return new Proxy(env, {
		get(target, property, receiver) {
			if (property === SLOTS) return slots;
			if (property === "AI") return gatedAi;
			return Reflect.get(target, property, receiver);
		},
	});
}

/** The slots an env made by withOutgoingSlots carries; null for a plain env (no gate: an API request's few calls). */
export function outgoingSlotsOf(env: object): OutgoingSlots | null {
	return ((env as Record<symbol, unknown>)[SLOTS] as OutgoingSlots | undefined) ?? null;
}
