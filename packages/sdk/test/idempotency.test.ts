/**
 * The SDK never charges a submission twice: every submit carries an Idempotency-Key (its own, or
 * the caller's), the same one on each of its retries; and no other write is repeated unless the
 * API refused it before acting (429).
 */
import { describe, expect, it } from "vitest";
import { ClipforgeError, createClient, isSafeToRepeat } from "../src/index.ts";

/**
 * A stand-in API that charges one minute per submission and honours Idempotency-Key like the real
 * one. `dropAfterProcessing` loses the next answers on the way back: the server did the work, the
 * client sees a network error (a connection reset after the request arrived).
 */
function chargingApi(options: { dropAfterProcessing?: number; failWith?: number[] } = {}) {
	let drops = options.dropAfterProcessing ?? 0;
	const failures = [...(options.failWith ?? [])];
	const seen: { method: string; url: string; key: string | null }[] = [];
	const replies = new Map<string, { id: string }>();
	let charged = 0;
	const fetchStub = (async (url: string, init: RequestInit) => {
		const headers = init.headers as Record<string, string>;
		const key = headers["idempotency-key"] ?? null;
		seen.push({ method: String(init.method), url, key });
		const status = failures.shift();
		if (status) {
			const code = status === 429 ? "rate_limited" : "service_unavailable";
			return Response.json(
				{ error: { code, message: code, requestId: "r" } },
				{ status, headers: status === 429 ? { "retry-after": "0.01" } : {} },
			);
		}
		let reply = key ? replies.get(key) : undefined;
		if (!reply) {
			charged++;
			reply = { id: `vid_${charged}` };
			if (key) replies.set(key, reply);
		}
		if (drops-- > 0) throw new TypeError("fetch failed: socket hang up");
		const body =
			init.method === "PUT"
				? { id: "vid_1", status: "downloading" }
				: { message: "ok", video: reply, videoInfo: {} };
		return Response.json(body, { status: init.method === "PUT" ? 200 : 201 });
	}) as unknown as typeof fetch;
	return { fetch: fetchStub, seen, charged: () => charged };
}

describe("submit and Idempotency-Key", () => {
	it("a lost answer is retried with the same generated key and charged once", async () => {
		const server = chargingApi({ dropAfterProcessing: 2 });
		const cf = createClient({ baseUrl: "http://api.test", apiKey: "k", fetch: server.fetch, maxAttempts: 4 });
		const submitted = await cf.submit("https://v.example/a.mp4", {});
		expect(submitted.video.id).toBe("vid_1");
		expect(server.seen).toHaveLength(3);
		expect(server.charged()).toBe(1);
		const keys = new Set(server.seen.map((s) => s.key));
		expect(keys.size).toBe(1);
		expect([...keys][0]).toMatch(/^sdk-[0-9a-f-]{36}$/);
	}, 20_000);

	it("each submit gets its own key (two videos are two charges)", async () => {
		const server = chargingApi();
		const cf = createClient({ baseUrl: "http://api.test", apiKey: "k", fetch: server.fetch });
		await cf.submit("https://v.example/a.mp4");
		await cf.submit("https://v.example/a.mp4");
		expect(server.seen[0]!.key).not.toBe(server.seen[1]!.key);
		expect(server.charged()).toBe(2);
	});

	it("the caller's key wins, on every retry, and across calls", async () => {
		const server = chargingApi({ dropAfterProcessing: 1, failWith: [503] });
		const cf = createClient({ baseUrl: "http://api.test", apiKey: "k", fetch: server.fetch });
		await cf.submit("https://v.example/a.mp4", undefined, { idempotencyKey: "order-42" });
		await cf.submit("https://v.example/a.mp4", undefined, { idempotencyKey: "order-42" });
		expect(server.seen.map((s) => s.key)).toEqual(["order-42", "order-42", "order-42", "order-42"]);
		expect(server.charged()).toBe(1);
	}, 20_000);
});

describe("other writes are not repeated blindly", () => {
	it("PUT …/config after a lost answer throws network_error after one try (it may have started the video)", async () => {
		const server = chargingApi({ dropAfterProcessing: 1 });
		const cf = createClient({ baseUrl: "http://api.test", apiKey: "k", fetch: server.fetch, maxAttempts: 4 });
		const error = await cf.configure("vid_1", { aspectRatio: "1:1" }).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(ClipforgeError);
		expect(error).toMatchObject({ code: "network_error" });
		expect(server.seen).toHaveLength(1);
	});

	it("PUT …/config after a 5xx is not repeated either; after 429 (refused before acting) it is", async () => {
		const failing = chargingApi({ failWith: [503] });
		const error = await createClient({ baseUrl: "http://api.test", apiKey: "k", fetch: failing.fetch })
			.configure("vid_1", {})
			.catch((e: unknown) => e);
		expect(error).toMatchObject({ code: "service_unavailable" });
		expect(failing.seen).toHaveLength(1);
		const limited = chargingApi({ failWith: [429] });
		await createClient({ baseUrl: "http://api.test", apiKey: "k", fetch: limited.fetch }).configure("vid_1", {});
		expect(limited.seen).toHaveLength(2);
	}, 20_000);

	it("reads and keyed writes are the only requests safe to repeat", () => {
		expect(isSafeToRepeat("GET", {})).toBe(true);
		expect(isSafeToRepeat("POST", { "idempotency-key": "k" })).toBe(true);
		expect(isSafeToRepeat("POST", {})).toBe(false);
		expect(isSafeToRepeat("PUT", {})).toBe(false);
		expect(isSafeToRepeat("DELETE", {})).toBe(false);
	});

	it("a full queue (429 queue_full) is reported, not waited out", async () => {
		let calls = 0;
		const fetchStub = (async () => {
			calls++;
			return Response.json(
				{ error: { code: "queue_full", message: "busy", requestId: "r" } },
				{ status: 429, headers: { "retry-after": "60" } },
			);
		}) as unknown as typeof fetch;
		const error = await createClient({ baseUrl: "http://api.test", apiKey: "k", fetch: fetchStub })
			.submit("https://v.example/a.mp4")
			.catch((e: unknown) => e);
		expect(error).toMatchObject({ code: "queue_full", status: 429 });
		expect(calls).toBe(1);
	});
});
