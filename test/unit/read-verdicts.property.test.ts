/**
 * Reads answered before the limiter's verdict (middleware/read-verdicts.ts): in one isolate, over
 * any arrival of reads (keys, times, verdicts arriving late or in bursts), no read the binding
 * refuses is ever answered early; and a key well within its limit stops waiting once it has a
 * verdict.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ReadVerdicts } from "../../src/worker/middleware/read-verdicts";

const LIMIT = 20;
const PERIOD_MS = 60_000;

/** The binding as miniflare keeps it: a count per key per wall-clock window. */
class ExactLimiter {
	private readonly counts = new Map<string, number>();
	limit(key: string, now: number): boolean {
		const bucket = `${key}@${Math.floor(now / PERIOD_MS)}`;
		const n = (this.counts.get(bucket) ?? 0) + 1;
		this.counts.set(bucket, n);
		return n <= LIMIT;
	}
}

const arrivals = fc.array(
	fc.record({
		key: fc.constantFrom("ws:a", "ws:b", "user:c"),
		/** ms since the previous read */
		gap: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: 0, max: 70_000 })),
		/** how many reads later its verdict reaches the isolate */
		lateBy: fc.integer({ min: 0, max: 4 }),
	}),
	{ maxLength: 200 },
);

describe("reads answered before the limiter's verdict", () => {
	it("never answers early a read the binding refuses, whatever the arrival and the verdicts' delays", () => {
		fc.assert(
			fc.property(arrivals, fc.integer({ min: 0, max: 10 * PERIOD_MS }), (reads, start) => {
				const verdicts = new ReadVerdicts(LIMIT, PERIOD_MS);
				const binding = new ExactLimiter();
				const pending: { due: number; key: string; success: boolean }[] = [];
				let now = start;
				reads.forEach((read, i) => {
					now += read.gap;
					for (const v of pending.filter((p) => p.due <= i)) verdicts.record(v.key, v.success);
					pending.splice(0, pending.length, ...pending.filter((p) => p.due > i));
					const early = verdicts.count(read.key, now);
					const success = binding.limit(read.key, now);
					if (early) expect(success).toBe(true);
					pending.push({ due: i + read.lateBy, key: read.key, success });
				});
			}),
		);
	});

	it("a key within its limit is answered at once from its second read; its last reads of the window wait again", () => {
		const verdicts = new ReadVerdicts(LIMIT, PERIOD_MS);
		const binding = new ExactLimiter();
		const early: boolean[] = [];
		for (let i = 0; i < LIMIT + 2; i++) {
			early.push(verdicts.count("ws:a", 1_000));
			verdicts.record("ws:a", binding.limit("ws:a", 1_000));
		}
		expect(early[0]).toBe(false);
		expect(early.slice(1, LIMIT - 1).every(Boolean)).toBe(true);
		expect(early.slice(LIMIT - 1)).toEqual([false, false, false]);
		// The next window: the last verdict was a refusal, so the first read waits, then it is known again.
		expect(verdicts.count("ws:a", PERIOD_MS + 1)).toBe(false);
		verdicts.record("ws:a", binding.limit("ws:a", PERIOD_MS + 1));
		expect(verdicts.count("ws:a", PERIOD_MS + 2)).toBe(true);
	});
});
