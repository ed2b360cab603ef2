/**
 * Six outgoing connections per invocation may wait for their headers at once on Workers; the
 * seventh is queued by the runtime, not refused. Here, inside workerd (the vitest pool), against a
 * real server on loopback (test/setup/slow-origin.ts) that counts the requests waiting at once:
 * what the local runtime does with sixteen at once (it queues none, so no local test can see the
 * limit), and that the workflow's own slots (lib/outgoing-slots.ts) keep a run's slow calls to
 * five at once, never fail one, and start the render client's idle timer only once a job may
 * really go out. The figures printed here are what `npm run limits:report` records.
 */
import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import {
	OUTGOING_CONNECTIONS,
	OutgoingSlots,
	outgoingSlotsOf,
	SLOW_CALL_SLOTS,
	withOutgoingSlots,
} from "../../src/worker/lib/outgoing-slots";
import { renderClientOver } from "../../src/worker/services/render-client";
import { recordFigure } from "../helpers/limit-figures";

const origin = () => inject("slowOrigin");

interface Stats {
	mostWaiting: number;
	arrivedMs: number[];
	answeredMs: number[];
}

async function statsOf(run: string): Promise<Stats> {
	return (await (await fetch(`${origin()}/stats?run=${run}`)).json()) as Stats;
}

/** `count` fetches of one invocation at once, each held `ms` by the origin before its headers. */
async function burst(count: number, ms: number, through?: OutgoingSlots) {
	const run = crypto.randomUUID();
	const started = Date.now();
	const outcomes = await Promise.allSettled(
		Array.from({ length: count }, async () => {
			const call = async () => {
				const response = await fetch(`${origin()}/wait?run=${run}&ms=${ms}`);
				return { status: response.status, text: await response.text(), at: Date.now() - started };
			};
			return through ? through.hold(call) : call();
		}),
	);
	return { outcomes, stats: await statsOf(run), wallMs: Date.now() - started };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe("sixteen connections from one invocation", () => {
	it("workerd here sends all sixteen at once and fails none: it does not enforce the limit (production queues all but six)", async () => {
		const { outcomes, stats, wallMs } = await burst(16, 400);
		expect(outcomes.every((o) => o.status === "fulfilled" && o.value.text === "ok")).toBe(true);
		// All sixteen were waiting for their headers at the origin at the same time: nothing queued.
		expect(stats.mostWaiting).toBe(16);
		recordFigure("connections.unshaped", {
			requests: 16,
			holdMs: 400,
			mostWaitingAtOrigin: stats.mostWaiting,
			failed: outcomes.filter((o) => o.status === "rejected").length,
			lastArrivalMs: Math.max(...stats.arrivedMs),
			wallMs,
		});
	});

	it("through the run's slots: five wait for headers at a time, in the order they asked, none fails", async () => {
		const slots = new OutgoingSlots();
		const { outcomes, stats, wallMs } = await burst(16, 300, slots);
		expect(outcomes.every((o) => o.status === "fulfilled" && o.value.text === "ok")).toBe(true);
		expect(stats.mostWaiting).toBe(SLOW_CALL_SLOTS);
		expect(SLOW_CALL_SLOTS).toBeLessThan(OUTGOING_CONNECTIONS);
		expect(slots.seen).toEqual({ mostHeld: SLOW_CALL_SLOTS, waited: 16 - SLOW_CALL_SLOTS });
		// Four rounds of five (16 = 5 + 5 + 5 + 1): the last ones arrive after the earlier ones were answered.
		const arrived = [...stats.arrivedMs].sort((a, b) => a - b);
		expect(arrived[SLOW_CALL_SLOTS]!).toBeGreaterThanOrEqual(Math.min(...stats.answeredMs));
		recordFigure("connections.shaped", {
			requests: 16,
			holdMs: 300,
			slots: SLOW_CALL_SLOTS,
			mostWaitingAtOrigin: stats.mostWaiting,
			waitedForSlot: slots.seen.waited,
			failed: outcomes.filter((o) => o.status === "rejected").length,
			wallMs,
		});
	});
});

describe("the render client waits for a slot before its idle timer starts", () => {
	const job = "uploadSource" as const;
	const request = {} as never;
	const retry = { reconnectForMs: 0, busyWaitMs: 0, firstDelayMs: 1, maxDelayMs: 1, maxCutsAfterEvents: 0 };

	it("a job that waits 1.5 s for a slot, with a 1 s idle timeout, still runs and answers", async () => {
		const slots = new OutgoingSlots();
		const run = crypto.randomUUID();
		// Five slow calls hold every slot for 1.5 s.
		const holders = Array.from({ length: SLOW_CALL_SLOTS }, () =>
			slots.hold(() => fetch(`${origin()}/wait?run=${run}-hold&ms=1500`).then((r) => r.text())),
		);
		const send = (_path: string, init: RequestInit) => fetch(`${origin()}/job?run=${run}&ms=50`, init);
		const client = renderClientOver(send, 1000, env.RENDER_SECRET, retry, slots);
		const started = Date.now();
		await expect(client.run(job, request)).resolves.toEqual({ bytes: 0 });
		expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
		await Promise.all(holders);
	});

	it("the same wait in front of the connection, with the timer already running, is taken for a hung tier (what a runtime queue would do)", async () => {
		const run = crypto.randomUUID();
		const queued = async (_path: string, init: RequestInit) => {
			await sleep(1500);
			return fetch(`${origin()}/job?run=${run}&ms=50`, init);
		};
		const client = renderClientOver(queued, 1000, env.RENDER_SECRET, retry);
		await expect(client.run(job, request)).rejects.toMatchObject({ code: "timeout", retryable: true });
	});
});

describe("a run's bindings", () => {
	it("Workers AI calls take a slot; every other binding is the same object", async () => {
		let running = 0;
		let most = 0;
		const ai = {
			async run(model: string) {
				running++;
				most = Math.max(most, running);
				await sleep(20);
				running--;
				return model;
			},
		};
		const plain = { AI: ai, DB: env.DB, MEDIA: env.MEDIA };
		const slots = new OutgoingSlots();
		const gated = withOutgoingSlots(plain, slots);
		const answers = await Promise.all(Array.from({ length: 12 }, (_, n) => gated.AI.run(`m${n}`)));
		expect(answers).toEqual(Array.from({ length: 12 }, (_, n) => `m${n}`));
		expect(most).toBe(SLOW_CALL_SLOTS);
		expect(gated.DB).toBe(env.DB);
		expect(gated.MEDIA).toBe(env.MEDIA);
		expect(outgoingSlotsOf(gated)).toBe(slots);
		expect(outgoingSlotsOf(plain)).toBeNull();
	});

	it("the Worker's own env can be wrapped (the workflow wraps it for each run)", () => {
		const gated = withOutgoingSlots(env, new OutgoingSlots());
		expect(gated.DB).toBe(env.DB);
		expect(gated.RENDER_URL).toBe(env.RENDER_URL);
	});
});
