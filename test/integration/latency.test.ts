/**
 * What keeps a status poll cheap worldwide: D1 sessions (the bookmark a client sends back reads its
 * own writes from any replica), verified keys cached at the edge (no D1 read to authenticate), and
 * conditional requests (304 while nothing changed).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/worker/services/crypto";
import { forgetKey } from "../../src/worker/services/key-cache";
import { createUser, createWorkspace } from "../helpers/accounts";
import { call, signIn } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";

const fake = useFakeRenderTier();
const submit = async (apiKey: string) => {
	const hostedUrl = fake().addSource(`https://videos.example.com/latency/${crypto.randomUUID()}.mp4`, {
		duration: 30,
	});
	const { body } = await call("POST", "/api/videos/hosted", { key: apiKey, body: { hostedUrl } });
	return body.video.id as string;
};

describe("D1 sessions", () => {
	it("every /api answer carries a bookmark; sending it back reads at least that fresh", async () => {
		const { apiKey } = await createWorkspace();
		const id = await submit(apiKey);
		const first = await call("GET", `/api/videos/${id}/status`, { key: apiKey });
		const bookmark = first.response.headers.get("x-clipforge-bookmark");
		expect(bookmark).toMatch(/\S+/);
		const next = await call("GET", `/api/videos/${id}/status`, {
			key: apiKey,
			headers: { "x-clipforge-bookmark": bookmark! },
		});
		expect(next.status).toBe(200);
		expect(next.response.headers.get("x-clipforge-bookmark")).toMatch(/\S+/);
		// A bookmark that is not one is ignored, never an error.
		expect(
			(
				await call("GET", `/api/videos/${id}/status`, {
					key: apiKey,
					headers: { "x-clipforge-bookmark": "'; DROP TABLE videos; --" },
				})
			).status,
		).toBe(200);
	});
});

describe("API keys verified at the edge", () => {
	it("a verified key is answered from the cache, without reading D1", async () => {
		const { apiKey, apiKeyId } = await createWorkspace();
		expect((await call("GET", "/api/workspaces", { key: apiKey })).status).toBe(200);
		// Gone from D1 behind the API's back: only a cache hit can still know it.
		await env.DB.prepare("UPDATE api_keys SET key_hash = 'moved' WHERE id = ?").bind(apiKeyId).run();
		expect((await call("GET", "/api/workspaces", { key: apiKey })).status).toBe(200);
		// Once the cached verification expires, D1 decides again.
		await forgetKey(await sha256Hex(apiKey));
		expect((await call("GET", "/api/workspaces", { key: apiKey })).status).toBe(401);
	});

	it("revoking a key through the API purges it: the very next request is refused", async () => {
		const user = await createUser();
		const cookie = await signIn(user.email, user.password);
		const created = await call("POST", "/api/api-keys", {
			headers: { cookie },
			body: { workspaceId: user.workspaceIds[0], name: "cached" },
		});
		for (let i = 0; i < 3; i++)
			expect((await call("GET", "/api/workspaces", { key: created.body.key })).status).toBe(200);
		expect((await call("DELETE", `/api/api-keys/${created.body.id}`, { headers: { cookie } })).status).toBe(200);
		expect((await call("GET", "/api/workspaces", { key: created.body.key })).status).toBe(401);
	});

	it("an unknown key is refused, and stays refused", async () => {
		const key = `cf_live_${crypto.randomUUID().replace(/-/g, "")}`;
		for (let i = 0; i < 3; i++) expect((await call("GET", "/api/workspaces", { key })).status).toBe(401);
	});
});

describe("conditional status polls", () => {
	it("answers 304 with no body while the status is unchanged, and 200 with a new ETag once it moves", async () => {
		const { apiKey } = await createWorkspace();
		const id = await submit(apiKey);
		const first = await call("GET", `/api/videos/${id}/status`, { key: apiKey });
		const etag = first.response.headers.get("etag")!;
		expect(etag).toMatch(/^W\/"[0-9a-f]{16}"$/);
		expect(first.response.headers.get("cache-control")).toBe("private, no-cache");
		const same = await call("GET", `/api/videos/${id}/status`, { key: apiKey, headers: { "if-none-match": etag } });
		expect(same.status).toBe(304);
		expect(same.body).toBe("");
		expect(same.response.headers.get("etag")).toBe(etag);
		await env.DB.prepare("UPDATE videos SET progress = progress + 1, updated_at = ? WHERE id = ?")
			.bind(new Date(Date.now() + 1000).toISOString(), id)
			.run();
		const moved = await call("GET", `/api/videos/${id}/status`, {
			key: apiKey,
			headers: { "if-none-match": etag },
		});
		expect(moved.status).toBe(200);
		expect(moved.response.headers.get("etag")).not.toBe(etag);
		// Another workspace's video is still a 404, ETag or not.
		const other = await createWorkspace();
		expect(
			(await call("GET", `/api/videos/${id}/status`, { key: other.apiKey, headers: { "if-none-match": etag } }))
				.status,
		).toBe(404);
	});

	it("clip lists are never stored by caches (their URLs are signed per call)", async () => {
		const { apiKey } = await createWorkspace();
		const id = await submit(apiKey);
		expect(
			(await call("GET", `/api/videos/${id}/clips`, { key: apiKey })).response.headers.get("cache-control"),
		).toBe("no-store");
	});
});
