import { describe, expect, it } from "vitest";
import { ClipforgeError, createClient, EXIT_CODES, exitCodeFor } from "../src/index.ts";

type Step = { status: number; body?: unknown; headers?: Record<string, string> } | "network";

/** A fetch that answers from a script and records what it was asked. */
function scripted(steps: Step[]) {
	const seen: { url: string; init: RequestInit }[] = [];
	const fetchStub = (async (url: string, init: RequestInit) => {
		seen.push({ url, init });
		const step = steps.shift() ?? {
			status: 500,
			body: { error: { code: "internal_error", message: "script ran out", requestId: "r" } },
		};
		if (step === "network") throw new TypeError("fetch failed");
		return new Response(step.body === undefined ? null : JSON.stringify(step.body), {
			status: step.status,
			headers: { "content-type": "application/json", ...step.headers },
		});
	}) as unknown as typeof fetch;
	return { fetch: fetchStub, seen };
}

const status = (s: string, progress: number, errorMessage: string | null = null) => ({
	status: 200,
	body: {
		video: { id: "vid_1", title: "t", status: s, errorMessage, createdAt: "", updatedAt: "" },
		job: { progress, stage: s, stageProgress: 50, startedAt: null, updatedAt: "" },
	},
});
const apiError = (statusCode: number, code: string, headers?: Record<string, string>) => ({
	status: statusCode,
	body: { error: { code, message: `${code}!`, requestId: "req_1" } },
	headers,
});

describe("createClient", () => {
	it("sends the key, JSON body and Idempotency-Key, and returns the typed body", async () => {
		const { fetch, seen } = scripted([
			{ status: 201, body: { message: "ok", video: { id: "vid_1" }, videoInfo: { duration: 60 } } },
		]);
		const cf = createClient({ baseUrl: "http://api.test/", apiKey: "cf_live_x", fetch });
		const submitted = await cf.submit("https://v.example/a.mp4", { aspectRatio: "1:1" }, { idempotencyKey: "k1" });
		expect(submitted.video.id).toBe("vid_1");
		expect(seen[0]!.url).toBe("http://api.test/api/videos/hosted");
		const headers = seen[0]!.init.headers as Record<string, string>;
		expect(headers.authorization).toBe("Bearer cf_live_x");
		expect(headers["idempotency-key"]).toBe("k1");
		expect(JSON.parse(String(seen[0]!.init.body))).toEqual({
			hostedUrl: "https://v.example/a.mp4",
			config: { aspectRatio: "1:1" },
		});
	});

	it("throws ClipforgeError with the API's code, status and request id, without retrying a 4xx", async () => {
		const { fetch, seen } = scripted([apiError(402, "insufficient_minutes")]);
		const error = await createClient({ baseUrl: "http://api.test", apiKey: "k", fetch })
			.submit("https://v.example/a.mp4")
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(ClipforgeError);
		expect(error).toMatchObject({ code: "insufficient_minutes", status: 402, requestId: "req_1" });
		expect(seen).toHaveLength(1);
		expect(exitCodeFor(error)).toBe(EXIT_CODES.minutes);
	});

	it("retries 429 after Retry-After, 5xx and network errors, then succeeds", async () => {
		const { fetch, seen } = scripted([
			apiError(429, "rate_limited", { "retry-after": "0.01" }),
			"network",
			apiError(503, "service_unavailable"),
			status("downloading", 3),
		]);
		const got = await createClient({ baseUrl: "http://api.test", apiKey: "k", fetch, maxAttempts: 4 }).status(
			"vid_1",
		);
		expect(got.job.progress).toBe(3);
		expect(seen).toHaveLength(4);
	}, 20_000);

	it("gives up after maxAttempts with the last error", async () => {
		const { fetch } = scripted(["network", "network"]);
		const error = await createClient({ baseUrl: "http://api.test", apiKey: "k", fetch, maxAttempts: 2 })
			.workspaces()
			.catch((e: unknown) => e);
		expect(error).toMatchObject({ code: "network_error", status: 0 });
		expect(exitCodeFor(error)).toBe(EXIT_CODES.unavailable);
	});

	it("reads a non-JSON error page (a proxy's HTML) as an error too", async () => {
		const fetchStub = (async () => new Response("<html>502</html>", { status: 502 })) as unknown as typeof fetch;
		const error = await createClient({ baseUrl: "http://api.test", apiKey: "k", fetch: fetchStub, maxAttempts: 1 })
			.workspaces()
			.catch((e: unknown) => e);
		expect(error).toMatchObject({ code: "internal_error", status: 502 });
	});
});

describe("waitForCompletion", () => {
	it("polls until completed, reporting every status", async () => {
		const { fetch } = scripted([status("downloading", 5), status("transcribing", 40), status("completed", 100)]);
		const seen: number[] = [];
		const done = await createClient({ baseUrl: "http://api.test", apiKey: "k", fetch }).waitForCompletion("vid_1", {
			intervalMs: 1,
			onProgress: (s) => seen.push(s.job.progress),
		});
		expect(done.video.status).toBe("completed");
		expect(seen).toEqual([5, 40, 100]);
	});

	it("throws video_failed with the errorMessage when processing fails", async () => {
		const { fetch } = scripted([
			status("transcribing", 40),
			status("failed", 40, "No speech was found in the video."),
		]);
		const error = await createClient({ baseUrl: "http://api.test", apiKey: "k", fetch })
			.waitForCompletion("vid_1", { intervalMs: 1 })
			.catch((e: unknown) => e);
		expect(error).toMatchObject({ code: "video_failed", message: "No speech was found in the video." });
		expect(exitCodeFor(error)).toBe(EXIT_CODES.videoFailed);
	});

	it("stops at once when its AbortSignal fires, and after timeoutMs", async () => {
		const { fetch } = scripted(Array.from({ length: 10 }, () => status("transcribing", 40)));
		const cf = createClient({ baseUrl: "http://api.test", apiKey: "k", fetch });
		const controller = new AbortController();
		const waiting = cf
			.waitForCompletion("vid_1", { intervalMs: 60_000, signal: controller.signal })
			.catch((e: unknown) => e);
		setTimeout(() => controller.abort(), 20);
		expect(await waiting).toMatchObject({ code: "aborted" });
		expect(
			await cf.waitForCompletion("vid_1", { intervalMs: 50, timeoutMs: 120 }).catch((e: unknown) => e),
		).toMatchObject({ code: "timeout" });
	});

	it("defaults to the API's advised 10-15 s poll interval", async () => {
		const { DEFAULT_POLL_MS } = await import("../src/index.ts");
		expect(DEFAULT_POLL_MS).toBeGreaterThanOrEqual(10_000);
		expect(DEFAULT_POLL_MS).toBeLessThanOrEqual(15_000);
	});
});

describe("on the wire", () => {
	it("sends back the last answer's D1 bookmark, so the next read is at least as fresh", async () => {
		const { fetch, seen } = scripted([
			{ ...status("downloading", 3), headers: { "x-clipforge-bookmark": "bm-1" } },
			{ ...status("downloading", 4), headers: { "x-clipforge-bookmark": "bm-2" } },
			status("downloading", 5),
		]);
		const cf = createClient({ baseUrl: "http://api.test", apiKey: "cf_live_x", fetch });
		await cf.status("vid_1");
		await cf.status("vid_1");
		await cf.status("vid_1");
		const sent = seen.map((s) => new Headers(s.init.headers).get("x-clipforge-bookmark"));
		expect(sent).toEqual([null, "bm-1", "bm-2"]);
	});

	it("polls status with If-None-Match and reads a 304 as the unchanged status", async () => {
		const { fetch, seen } = scripted([
			{ ...status("transcribing", 40), headers: { etag: 'W/"aaaa"' } },
			{ status: 304, headers: { etag: 'W/"aaaa"' } },
			{ ...status("completed", 100), headers: { etag: 'W/"bbbb"' } },
		]);
		const cf = createClient({ baseUrl: "http://api.test", apiKey: "cf_live_x", fetch });
		const seenStatuses: number[] = [];
		const done = await cf.waitForCompletion("vid_1", {
			intervalMs: 1,
			onProgress: (s) => seenStatuses.push(s.job.progress),
		});
		expect(done.video.status).toBe("completed");
		expect(seenStatuses).toEqual([40, 40, 100]);
		expect(seen.map((s) => new Headers(s.init.headers).get("if-none-match"))).toEqual([
			null,
			'W/"aaaa"',
			'W/"aaaa"',
		]);
	});
});

describe("caption templates", () => {
	it("lists, creates, changes (by the listed custom: id) and deletes the workspace's templates", async () => {
		const template = {
			id: "custom:ct_1",
			kind: "custom",
			name: "Brand",
			presetId: "boxed",
			font: "lato-black",
			textColor: "#FFFFFF",
			highlightColor: "#FF0000",
			position: "top",
		};
		const { fetch, seen } = scripted([
			{ status: 200, body: { templates: [template], fonts: [], positions: [] } },
			{ status: 201, body: template },
			{ status: 200, body: { ...template, name: "Brand 2" } },
			{ status: 204 },
		]);
		const cf = createClient({ baseUrl: "http://api.test", apiKey: "k", fetch });
		expect((await cf.captionTemplates()).templates[0]!.id).toBe("custom:ct_1");
		await cf.createCaptionTemplate({
			name: "Brand",
			presetId: "boxed",
			highlightColor: "#FF0000",
			position: "top",
		});
		expect((await cf.updateCaptionTemplate("custom:ct_1", { name: "Brand 2" })).name).toBe("Brand 2");
		await cf.deleteCaptionTemplate("custom:ct_1");
		expect(seen.map((s) => `${s.init.method} ${s.url}`)).toEqual([
			"GET http://api.test/api/caption-templates",
			"POST http://api.test/api/caption-templates",
			"PATCH http://api.test/api/caption-templates/ct_1",
			"DELETE http://api.test/api/caption-templates/ct_1",
		]);
		expect(JSON.parse(String(seen[1]!.init.body))).toEqual({
			name: "Brand",
			presetId: "boxed",
			highlightColor: "#FF0000",
			position: "top",
		});
	});
});
