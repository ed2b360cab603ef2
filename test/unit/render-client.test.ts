/**
 * The Worker's client of the render tier over a connection that breaks: a reset before the request
 * lands, a stream cut mid-job, a tier that dies and comes back. Each is sent again on a fresh
 * connection after a backoff, within the budget; errors the tier reports are never resent here.
 */
import { describe, expect, it } from "vitest";
import { encodeJobEvent, renderJobs, verifyRenderRequest, type JobEvent } from "@clipforge/contract";
import {
	DEFAULT_RETRY_POLICY,
	renderClientOver,
	RenderTierError,
	type RetryPolicy,
} from "../../src/worker/services/render-client";

const SECRET = "s".repeat(48);
const RESULT = { bytes: 10, thumbnailBytes: 2, width: 1080, height: 1920, duration: 12 };
const REQUEST = {
	videoId: "vid_1",
	clipId: "clp_1",
	sourceUrl: "https://w.test/s.mp4",
	start: 0,
	end: 12,
	aspectRatio: "9:16" as const,
	videoPutUrl: "https://w.test/v",
	thumbnailPutUrl: "https://w.test/t",
};

/** What one connection does: answer these events (then end, or break), or never connect. */
type Connection =
	| { events: JobEvent[]; then?: "end" | "break" }
	| "refused"
	| { status: number; body: unknown; headers?: Record<string, string> };

function tier(connections: Connection[]) {
	const sent: { path: string; nonce: string }[] = [];
	const send = async (path: string, init: RequestInit) => {
		const verdict = await verifyRenderRequest(SECRET, (init.headers as Record<string, string>).authorization, {
			method: "POST",
			path,
			body: init.body as string,
		});
		if (!verdict.ok) throw new Error(`unsigned request: ${verdict.reason}`);
		sent.push({ path, nonce: verdict.nonce });
		const next = connections.shift() ?? { events: [] };
		if (next === "refused") throw new TypeError("Network connection lost.");
		if ("status" in next) return Response.json(next.body, { status: next.status, headers: next.headers });
		const lines = next.events.map(encodeJobEvent);
		// The events arrive, then the connection breaks (or ends) under the next read.
		const body = new ReadableStream<Uint8Array>({
			pull(controller) {
				const line = lines.shift();
				if (line !== undefined) controller.enqueue(new TextEncoder().encode(line));
				else if (next.then === "break") controller.error(new TypeError("Network connection lost."));
				else controller.close();
			},
		});
		return new Response(body, { headers: { "content-type": "application/x-ndjson" } });
	};
	return { send, sent };
}

function clientOf(connections: Connection[], policy: Partial<RetryPolicy> = {}) {
	const { send, sent } = tier(connections);
	const slept: number[] = [];
	const client = renderClientOver(send, 60_000, SECRET, {
		...DEFAULT_RETRY_POLICY,
		...policy,
		sleep: policy.sleep ?? (async (ms) => void slept.push(ms)),
	});
	return { client, sent, slept };
}

const progress = (fraction: number): JobEvent => ({ type: "progress", fraction });
const result: JobEvent = { type: "result", result: RESULT };

describe("a lost connection to the render tier", () => {
	it("reset before the request lands: sent again, signed anew, after a growing backoff", async () => {
		const { client, sent, slept } = clientOf([
			"refused",
			"refused",
			"refused",
			{ events: [progress(0.5), result] },
		]);
		await expect(client.run("renderClip", REQUEST)).resolves.toMatchObject({ bytes: 10 });
		expect(sent).toHaveLength(4);
		expect(new Set(sent.map((s) => s.nonce)).size).toBe(4);
		expect(slept).toEqual([250, 500, 1000]);
	});

	it("cut mid-stream, or closed before the last event: the job is asked for again and its progress goes on", async () => {
		const fractions: number[] = [];
		const { client, sent } = clientOf([
			{ events: [progress(0.2)], then: "break" },
			{ events: [progress(0.4)], then: "end" },
			{ events: [progress(0.6), result] },
		]);
		await expect(
			client.run("renderClip", REQUEST, { onProgress: (f) => void fractions.push(f) }),
		).resolves.toMatchObject({ duration: 12 });
		expect(sent.map((s) => s.path)).toEqual(Array(3).fill(renderJobs.renderClip.path));
		expect(fractions).toEqual([0.2, 0.4, 0.6]);
	});

	it("a tier down longer than the budget: the last error, in words a user reads", async () => {
		const { client, sent, slept } = clientOf(Array(100).fill("refused"), { reconnectForMs: 1 });
		const error = await client.run("renderClip", REQUEST).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(RenderTierError);
		expect(error).toMatchObject({
			code: "unreachable",
			retryable: true,
			message: "The render tier could not be reached: Network connection lost.",
		});
		expect(sent.length).toBeGreaterThanOrEqual(2);
		expect(slept.length).toBe(sent.length - 1);
	});

	it("a tier that dies on the job each time it starts: given up after maxCutsAfterEvents", async () => {
		const { client, sent } = clientOf(Array(100).fill({ events: [progress(0.1)], then: "end" }), {
			maxCutsAfterEvents: 3,
		});
		await expect(client.run("renderClip", REQUEST)).rejects.toThrow(
			"The render tier closed /jobs/render-clip without a result.",
		);
		expect(sent).toHaveLength(4);
	});

	it("a one-answer job (the submission's probe) stops at its own timeout, however the connection fares", async () => {
		const { client, sent } = clientOf(Array(100).fill("refused"), {
			sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
			firstDelayMs: 40,
			maxDelayMs: 40,
		});
		const started = Date.now();
		await expect(client.run("probe", { url: "https://videos.test/a.mp4" }, { timeoutMs: 300 })).rejects.toThrow(
			/could not be reached/,
		);
		expect(Date.now() - started).toBeLessThan(2000);
		expect(sent.length).toBeGreaterThan(1);
	});

	it("an error the tier reports is the job's answer: never sent again here (the workflow step decides)", async () => {
		const failed: JobEvent = {
			type: "error",
			error: { code: "process_failed", message: "ffmpeg exited with code 1", retryable: true },
		};
		const { client, sent } = clientOf([{ events: [progress(0.3), failed] }]);
		await expect(client.run("renderClip", REQUEST)).rejects.toMatchObject({
			code: "process_failed",
			retryable: true,
		});
		expect(sent).toHaveLength(1);
		const refused = clientOf([
			{ status: 400, body: { error: { code: "invalid_request", message: "bad", retryable: false } } },
		]);
		await expect(refused.client.run("renderClip", REQUEST)).rejects.toMatchObject({ code: "invalid_request" });
		expect(refused.sent).toHaveLength(1);
	});

	it("a busy tier is asked again after its Retry-After, up to busyWaitMs", async () => {
		const busy: Connection = {
			status: 503,
			body: {
				error: {
					code: "busy",
					message: "The render tier is running its maximum of 16 jobs; retry shortly.",
					retryable: true,
				},
			},
			headers: { "retry-after": "5" },
		};
		const { client, slept } = clientOf([busy, busy, { events: [result] }]);
		await expect(client.run("renderClip", REQUEST)).resolves.toMatchObject({ bytes: 10 });
		expect(slept).toEqual([5000, 5000]);
		// Busy without a Retry-After (a job whose disk filled up, told in its stream): asked again backing off.
		const full: Connection = {
			events: [
				{
					type: "error",
					error: { code: "busy", message: "This render instance's disk is full", retryable: true },
				},
			],
		};
		const backingOff = clientOf([full, full, full, { events: [result] }]);
		await expect(backingOff.client.run("renderClip", REQUEST)).resolves.toMatchObject({ bytes: 10 });
		expect(backingOff.slept).toEqual([250, 500, 1000]);
		const impatient = clientOf([busy, busy], { busyWaitMs: 0 });
		await expect(impatient.client.run("renderClip", REQUEST)).rejects.toMatchObject({ code: "busy" });
		expect(impatient.sent).toHaveLength(1);
	});
});
