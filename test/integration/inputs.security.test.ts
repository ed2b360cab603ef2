/** Oversized input: request bodies on every route, and what a source's probe says about itself. */
import { env } from "cloudflare:workers";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "../../src/worker/middleware/body-limit";
import { createWorkspace } from "../helpers/accounts";
import { BASE, call } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";

const fake = useFakeRenderTier();

const jsonOfSize = (bytes: number) => `{"name":"${"x".repeat(bytes - 11)}"}`;

async function expectTooLarge(result: { status: number; body: any }, what: string) {
	expect(result.status, what).toBe(413);
	expect(Object.keys(result.body), what).toEqual(["error"]);
	expect(result.body.error.code, what).toBe("payload_too_large");
	expect(result.body.error.details, what).toEqual({ maxBytes: MAX_BODY_BYTES });
	expect(typeof result.body.error.requestId, what).toBe("string");
}

/** A body sent as a stream, so no Content-Length tells its size in advance. */
function streamed(bytes: number): ReadableStream<Uint8Array> {
	let sent = 0;
	return new ReadableStream({
		pull(controller) {
			const chunk = new TextEncoder().encode("x".repeat(Math.min(16 * 1024, bytes - sent)));
			sent += chunk.length;
			controller.enqueue(chunk);
			if (sent >= bytes) controller.close();
		},
	});
}

describe("a body limit on every route", () => {
	it("every documented write, with or without credentials, refuses a body over the limit with 413 payload_too_large", async () => {
		const { apiKey } = await createWorkspace();
		const { body: doc } = await call("GET", "/api/openapi.json");
		// The one exception, a part of a user's upload (up to 50 MiB), is tested in uploads.test.ts.
		const writes = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
			.filter(([path]) => path !== "/api/uploads/{id}/parts/{partNumber}")
			.flatMap(([path, item]) =>
				Object.keys(item)
					.filter((m) => m !== "get")
					.map((m) => [m.toUpperCase(), path.replace(/\{[^}]+\}/g, "x")] as const),
			);
		expect(writes.length).toBeGreaterThanOrEqual(12);
		const huge = jsonOfSize(MAX_BODY_BYTES + 1);
		for (const [method, path] of [
			...writes,
			["POST", "/healthz"],
			["POST", "/app"],
			["PUT", "/api/no-such-route"],
			["POST", "/docs"],
		] as const) {
			await expectTooLarge(await call(method, path, { rawBody: huge }), `${method} ${path} anonymous`);
			await expectTooLarge(
				await call(method, path, { key: apiKey, rawBody: huge }),
				`${method} ${path} with a key`,
			);
		}
		const { body: ops } = await call("GET", "/api/openapi.json");
		expect(ops.info.description).toMatch(/64 KiB/);
	});

	it("a streamed (chunked) body is counted as it arrives and refused once over the limit", async () => {
		const { apiKey } = await createWorkspace();
		for (const path of ["/api/videos/hosted", "/api/auth/login", "/api/projects"]) {
			const response = await exports.default.fetch(`${BASE}${path}`, {
				method: "POST",
				headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
				body: streamed(10 * MAX_BODY_BYTES),
			});
			await expectTooLarge({ status: response.status, body: await response.json() }, path);
		}
	});

	it("a body at the limit goes through to the route's own checks", async () => {
		const { apiKey } = await createWorkspace();
		const result = await call("POST", "/api/projects", { key: apiKey, rawBody: jsonOfSize(MAX_BODY_BYTES) });
		expect(result.status).toBe(400); // the name is too long for a project, not too big for the limit
		expect(result.body.error.code).toBe("invalid_request");
	});

	it("sign-in with a megabyte password is refused before any hashing", async () => {
		const started = Date.now();
		const result = await call("POST", "/api/auth/login", {
			body: { email: "a@example.com", password: "p".repeat(1024 * 1024) },
		});
		await expectTooLarge(result, "login");
		expect(Date.now() - started).toBeLessThan(2000);
	});

	it("an internal object upload must declare its length", async () => {
		const response = await exports.default.fetch(
			`${BASE}/internal/objects/sources/x/source.mp4?method=PUT&exp=1&sig=x`,
			{ method: "PUT", body: streamed(1000) },
		);
		expect(response.status).toBe(400);
	});
});

describe("what a probe says is bounded", () => {
	it("a megabyte title and channel name are stored and served cut to 300 and 200 characters; a javascript: thumbnail is dropped", async () => {
		const { apiKey } = await createWorkspace();
		const title = `🎬${"T".repeat(1024 * 1024)}`;
		const hostedUrl = fake().addSource(`https://videos.example.com/b/${crypto.randomUUID()}`, {
			duration: 60,
			title,
			channelName: "C\u0000".repeat(500_000),
			thumbnail: "javascript:alert(1)",
		});
		const created = await call("POST", "/api/videos/hosted", { key: apiKey, body: { hostedUrl } });
		expect(created.status).toBe(201);
		const id = created.body.video.id;
		expect(Array.from(created.body.video.title as string)).toHaveLength(300);
		expect(created.body.video.title).toMatch(/^🎬T+…$/);
		expect(created.body.videoInfo.channelName.length).toBeLessThanOrEqual(200);
		expect(created.body.videoInfo.channelName).not.toContain("\u0000");
		expect(created.body.videoInfo.thumbnail).toBe("");
		const row = await env.DB.prepare(
			"SELECT length(title) AS t, length(channel_name) AS c FROM videos WHERE id = ?",
		)
			.bind(id)
			.first<{ t: number; c: number }>();
		expect(row!.t).toBeLessThanOrEqual(300);
		expect(row!.c).toBeLessThanOrEqual(200);
		for (const path of [`/api/videos/${id}`, `/api/videos/${id}/status`, "/api/videos"]) {
			const { response } = await call("GET", path, { key: apiKey });
			expect(Number(response.headers.get("content-length") ?? 0), path).toBeLessThan(8000);
		}
	});

	it("a row stored before the bound is served bounded", async () => {
		const { apiKey } = await createWorkspace();
		const hostedUrl = fake().addSource(`https://videos.example.com/b/${crypto.randomUUID()}`, { duration: 60 });
		const id = (await call("POST", "/api/videos/hosted", { key: apiKey, body: { hostedUrl } })).body.video.id;
		await env.DB.prepare("UPDATE videos SET title = ?, channel_name = ? WHERE id = ?")
			.bind("x".repeat(100_000), "y".repeat(100_000), id)
			.run();
		const detail = (await call("GET", `/api/videos/${id}`, { key: apiKey })).body;
		expect(detail.title.length).toBe(300);
		expect(detail.videoInfo.channelName.length).toBe(200);
		expect((await call("GET", `/api/videos/${id}/status`, { key: apiKey })).body.video.title.length).toBe(300);
	});
});
