import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createUser, createWorkspace } from "../helpers/accounts";
import { call, signIn } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";

const fake = useFakeRenderTier();

describe("session security", () => {
	it("a wrong password and an unknown email get the same 401", async () => {
		const user = await createUser();
		const wrong = await call("POST", "/api/auth/login", { body: { email: user.email, password: "nope-nope" } });
		const unknown = await call("POST", "/api/auth/login", {
			body: { email: "nobody@example.com", password: "nope-nope" },
		});
		expect(wrong.status).toBe(401);
		expect(unknown.status).toBe(401);
		expect(wrong.body.error.message).toBe(unknown.body.error.message);
		expect(wrong.response.headers.get("set-cookie")).toBeNull();
	});

	it("an expired session is refused", async () => {
		const user = await createUser();
		const cookie = await signIn(user.email, user.password);
		await env.DB.prepare("UPDATE sessions SET expires_at = '2020-01-01T00:00:00.000Z' WHERE user_id = ?")
			.bind(user.userId)
			.run();
		expect((await call("GET", "/api/workspaces", { headers: { cookie } })).status).toBe(401);
	});

	it("a forged cookie is refused", async () => {
		expect((await call("GET", "/api/workspaces", { headers: { cookie: "__Host-cf_session=forged" } })).status).toBe(
			401,
		);
	});

	it("a session user must name the workspace (400) and be a member of it (403); nothing is charged", async () => {
		const user = await createUser({ minutes: 30 });
		const stranger = await createWorkspace({ minutes: 30 });
		const cookie = await signIn(user.email, user.password);
		const hostedUrl = fake().addSource(`https://videos.example.com/s/${crypto.randomUUID()}`, { duration: 60 });
		const missing = await call("POST", "/api/videos/hosted", { headers: { cookie }, body: { hostedUrl } });
		expect(missing.status).toBe(400);
		expect(missing.body.error.details[0].path).toBe("workspaceId");
		const foreign = await call("POST", "/api/videos/hosted", {
			headers: { cookie },
			body: { hostedUrl, workspaceId: stranger.workspaceId },
		});
		expect(foreign.status).toBe(403);
		expect(foreign.body.error.code).toBe("forbidden");
		expect(fake().calls).toHaveLength(0);
	});

	it("a session user cannot see another workspace's video (404)", async () => {
		const owner = await createWorkspace();
		const user = await createUser();
		const hostedUrl = fake().addSource(`https://videos.example.com/o/${crypto.randomUUID()}`, { duration: 60 });
		const created = await call("POST", "/api/videos/hosted", { key: owner.apiKey, body: { hostedUrl } });
		const cookie = await signIn(user.email, user.password);
		expect((await call("GET", `/api/videos/${created.body.video.id}`, { headers: { cookie } })).status).toBe(404);
	});
});

describe("API key management security", () => {
	it("an API key cannot manage keys (403)", async () => {
		const { apiKey, workspaceId } = await createWorkspace();
		for (const [method, path, body] of [
			["GET", "/api/api-keys", undefined],
			["POST", "/api/api-keys", { workspaceId, name: "x" }],
			["DELETE", "/api/api-keys/key_x", undefined],
		] as const) {
			const result = await call(method, path, { key: apiKey, body });
			expect(result.status).toBe(403);
			expect(result.body.error.code).toBe("forbidden");
		}
	});

	it("keys of another workspace are neither listed, revocable, nor creatable", async () => {
		const user = await createUser();
		const other = await createWorkspace();
		const cookie = await signIn(user.email, user.password);
		expect(
			(
				await call("POST", "/api/api-keys", {
					headers: { cookie },
					body: { workspaceId: other.workspaceId, name: "x" },
				})
			).status,
		).toBe(403);
		expect(
			(await call("GET", `/api/api-keys?workspaceId=${other.workspaceId}`, { headers: { cookie } })).status,
		).toBe(403);
		expect((await call("DELETE", `/api/api-keys/${other.apiKeyId}`, { headers: { cookie } })).status).toBe(404);
		expect((await call("GET", "/api/workspaces", { key: other.apiKey })).status).toBe(200);
	});

	it("key creation validates its body", async () => {
		const user = await createUser();
		const cookie = await signIn(user.email, user.password);
		const result = await call("POST", "/api/api-keys", {
			headers: { cookie },
			body: { workspaceId: user.workspaceIds[0], name: "", extra: 1 },
		});
		expect(result.status).toBe(400);
		expect(result.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(["(body)", "name"]);
	});
});
