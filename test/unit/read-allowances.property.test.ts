/**
 * Reads paid for in batches (middleware/read-allowances.ts): over any arrival of reads (keys,
 * isolates, times, payments answered late or out of order), no window answers more reads of a key
 * than the binding granted batches for; one isolate answers exactly the limit; and a key read
 * steadily waits for the binding only on its first read of a window.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ReadAllowances, type Payer } from "../../src/worker/middleware/read-allowances";

const BATCH = 5;
const BATCHES = 4;
const LIMIT = BATCH * BATCHES;
const PERIOD_MS = 60_000;

/** The binding as miniflare keeps it: a count of calls per key per wall-clock window. */
class BatchLimiter {
	private readonly counts = new Map<string, number>();
	limit(key: string, now: number): boolean {
		const bucket = `${key}@${Math.floor(now / PERIOD_MS)}`;
		const n = (this.counts.get(bucket) ?? 0) + 1;
		this.counts.set(bucket, n);
		return n <= BATCHES;
	}
}

/** Lets every promise chain waiting on a settled payment run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Isolates sharing a clock and a binding; each payment is answered when the test says. */
function world(isolates: number) {
	const clock = { now: 0 };
	const binding = new BatchLimiter();
	const pending: { due: number; answer: () => void }[] = [];
	const answered = new Map<string, number>();
	const allowances = Array.from({ length: isolates }, () => new ReadAllowances(BATCH, PERIOD_MS, () => clock.now));
	const payer = (due: number): Payer => ({
		pay: (key) =>
			new Promise<boolean>((resolve) => {
				const granted = binding.limit(key, clock.now);
				pending.push({ due, answer: () => resolve(granted) });
			}),
		inBackground: () => undefined,
	});
	const answer = (key: string) => {
		const bucket = `${key}@${Math.floor(clock.now / PERIOD_MS)}`;
		answered.set(bucket, (answered.get(bucket) ?? 0) + 1);
	};
	/** Answers the payments due by step `i` (all of them when i is Infinity), then lets the readers run. */
	const answerDue = async (i: number) => {
		for (let round = 0; round < 50 && pending.some((p) => p.due <= i); round++) {
			const due = pending.filter((p) => p.due <= i);
			pending.splice(0, pending.length, ...pending.filter((p) => p.due > i));
			for (const p of due) p.answer();
			await settle();
		}
	};
	return { clock, allowances, payer, answer, answered, answerDue };
}

const arrivals = fc.array(
	fc.record({
		key: fc.constantFrom("ws:a", "ws:b", "user:c"),
		isolate: fc.integer({ min: 0, max: 2 }),
		/** ms since the previous read */
		gap: fc.oneof(
			{ arbitrary: fc.constant(0), weight: 4 },
			{ arbitrary: fc.integer({ min: 0, max: 1_000 }), weight: 4 },
			{ arbitrary: fc.integer({ min: 0, max: 70_000 }), weight: 1 },
		),
		/** how many reads later the payment this read starts is answered */
		lateBy: fc.integer({ min: 0, max: 4 }),
	}),
	{ minLength: 20, maxLength: 200 },
);

describe("reads paid for in batches", () => {
	it("never answers more reads of a key in a window than the binding granted, whatever the isolates and delays", async () => {
		await fc.assert(
			fc.asyncProperty(arrivals, fc.integer({ min: 0, max: 10 * PERIOD_MS }), async (reads, start) => {
				const w = world(3);
				w.clock.now = start;
				for (const [i, read] of reads.entries()) {
					w.clock.now += read.gap;
					await w.answerDue(i);
					const take = w.allowances[read.isolate]!.take(read.key, w.payer(i + read.lateBy));
					if (take === true) w.answer(read.key);
					else void take.then((ok) => ok && w.answer(read.key));
				}
				await w.answerDue(Infinity);
				for (const [bucket, n] of w.answered) expect(n, bucket).toBeLessThanOrEqual(LIMIT);
			}),
			{ numRuns: 100 },
		);
	});

	it("one isolate answers exactly the limit in a window, and the read past it is refused", async () => {
		await fc.assert(
			fc.asyncProperty(fc.integer({ min: 1, max: 3 * LIMIT }), fc.boolean(), async (reads, together) => {
				const w = world(1);
				w.clock.now = 1_000;
				const outcomes: Promise<boolean>[] = [];
				for (let i = 0; i < reads; i++) {
					outcomes.push(Promise.resolve(w.allowances[0]!.take("ws:a", w.payer(i))));
					if (!together) await w.answerDue(i);
				}
				await w.answerDue(Infinity);
				const allowed = (await Promise.all(outcomes)).filter(Boolean).length;
				expect(allowed).toBe(Math.min(reads, LIMIT));
			}),
			{ numRuns: 100 },
		);
	});

	it("a key read in bursts of up to a batch waits only in its first burst of a window: a batch is paid ahead", async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(fc.integer({ min: 1, max: BATCH }), { minLength: 1, maxLength: 8 }),
				async (drawn) => {
					// Within the limit: past it a read waits for, and gets, its refusal.
					const bursts = drawn.filter((_, b) => drawn.slice(0, b + 1).reduce((x, y) => x + y, 0) <= LIMIT);
					const w = world(1);
					w.clock.now = 1_000;
					const waited = bursts.map(() => false);
					for (const [b, size] of bursts.entries()) {
						for (let r = 0; r < size; r++) waited[b] ||= w.allowances[0]!.take("ws:a", w.payer(b)) !== true;
						await w.answerDue(b);
					}
					expect(waited[0]).toBe(true);
					expect(waited.slice(1).some(Boolean)).toBe(false);
				},
			),
			{ numRuns: 100 },
		);
	});

	it("a new window starts unpaid: its first read waits again", async () => {
		const w = world(1);
		w.clock.now = 1_000;
		const first = w.allowances[0]!.take("ws:a", w.payer(0));
		await w.answerDue(0);
		expect(await first).toBe(true);
		w.clock.now = PERIOD_MS + 1_000;
		expect(w.allowances[0]!.take("ws:a", w.payer(1))).not.toBe(true);
	});
});
