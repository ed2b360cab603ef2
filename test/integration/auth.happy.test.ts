import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { LAST_USED_RESOLUTION_MS } from "../../src/worker/middleware/auth";
import { sha256Hex } from "../../src/worker/services/crypto";
import { forgetKey } from "../../src/worker/services/key-cache";
import { createUser } from "../helpers/accounts";
import { call, signIn } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";

const fake = useFakeRenderTier();

describe("sessions", () => {
	it("login sets a __Host- cookie (HttpOnly, Secure, SameSite=Lax, Path=/, no Domain) that expires, and lists every workspace of the user", async () => {
		const user = await createUser({ workspaces: 2 });
		const login = await call("POST", "/api/auth/login", { body: { email: user.email, password: user.password } });
		expect(login.status).toBe(200);
		expect(login.body.user).toEqual({ id: user.userId, email: user.email });
		const cookie = login.response.headers.get("set-cookie")!;
		expect(cookie).toMatch(/^__Host-cf_session=[A-Za-z0-9_-]{40,};/);
		expect(cookie.split(", cf_session=")[0]).toMatch(/Path=\//);
		expect(cookie).not.toMatch(/Domain=/i);
		expect(cookie).toMatch(/HttpOnly/);
		expect(cookie).toMatch(/Secure/);
		expect(cookie).toMatch(/SameSite=Lax/);
		expect(cookie).toMatch(/Max-Age=604800/);
		const workspaces = await call("GET", "/api/workspaces", { headers: { cookie: cookie.split(";")[0]! } });
		expect(workspaces.body.map((w: { id: string }) => w.id).sort()).toEqual([...user.workspaceIds].sort());
	});

	it("a session user submits into the workspace they name, and reads it back", async () => {
		const user = await createUser({ workspaces: 2 });
		const cookie = await signIn(user.email, user.password);
		const hostedUrl = fake().addSource(`https://videos.example.com/s/${crypto.randomUUID()}`, { duration: 60 });
		const created = await call("POST", "/api/videos/hosted", {
			headers: { cookie },
			body: { hostedUrl, workspaceId: user.workspaceIds[1] },
		});
		expect(created.status).toBe(201);
		expect(created.body.video.workspaceId).toBe(user.workspaceIds[1]);
		expect((await call("GET", `/api/videos/${created.body.video.id}/status`, { headers: { cookie } })).status).toBe(
			200,
		);
	});

	it("logout ends the session at once", async () => {
		const user = await createUser();
		const cookie = await signIn(user.email, user.password);
		const out = await call("POST", "/api/auth/logout", { headers: { cookie } });
		expect(out.status).toBe(204);
		expect(out.response.headers.get("set-cookie")).toMatch(/__Host-cf_session=;/);
		expect((await call("GET", "/api/workspaces", { headers: { cookie } })).status).toBe(401);
	});
});

describe("API keys", () => {
	it("are created with the plaintext shown once, listed without it, and work at once", async () => {
		const user = await createUser();
		const cookie = await signIn(user.email, user.password);
		const created = await call("POST", "/api/api-keys", {
			headers: { cookie },
			body: { workspaceId: user.workspaceIds[0], name: "CI" },
		});
		expect(created.status).toBe(201);
		expect(created.body.key).toMatch(/^cf_live_[A-Za-z0-9_-]{32}$/);
		expect(created.body.prefix).toBe(created.body.key.slice(0, 12));
		const listed = await call("GET", "/api/api-keys", { headers: { cookie } });
		const mine = listed.body.apiKeys.find((k: { id: string }) => k.id === created.body.id);
		expect(mine).toMatchObject({ name: "CI", workspaceId: user.workspaceIds[0], revokedAt: null });
		expect(mine).not.toHaveProperty("key");
		expect(JSON.stringify(listed.body)).not.toContain(created.body.key);
		const stored = await env.DB.prepare("SELECT key_hash AS h FROM api_keys WHERE id = ?")
			.bind(created.body.id)
			.first<string>("h");
		expect(stored).toBe(await sha256Hex(created.body.key));
		const everything = JSON.stringify((await env.DB.prepare("SELECT * FROM api_keys").all()).results);
		expect(everything).not.toContain(created.body.key);
		const withKey = await call("GET", "/api/workspaces", { key: created.body.key });
		expect(withKey.body.map((w: { id: string }) => w.id)).toEqual([user.workspaceIds[0]]);
	});

	it("record when they were last used, without a write on every request", async () => {
		const user = await createUser();
		const cookie = await signIn(user.email, user.password);
		const created = await call("POST", "/api/api-keys", {
			headers: { cookie },
			body: { workspaceId: user.workspaceIds[0], name: "poller" },
		});
		const lastUsed = async () =>
			(await call("GET", "/api/api-keys", { headers: { cookie } })).body.apiKeys.find(
				(k: { id: string }) => k.id === created.body.id,
			).lastUsedAt;
		expect(await lastUsed()).toBeNull();

		const before = Date.now();
		expect((await call("GET", "/api/workspaces", { key: created.body.key })).status).toBe(200);
		await expect.poll(lastUsed).not.toBeNull();
		const first = await lastUsed();
		expect(Date.parse(first)).toBeGreaterThanOrEqual(before - 1000);

		// Within the resolution the stamp stands; once it is older, the next request moves it.
		expect((await call("GET", "/api/workspaces", { key: created.body.key })).status).toBe(200);
		await new Promise((r) => setTimeout(r, 200));
		expect(await lastUsed()).toBe(first);
		const stale = new Date(Date.now() - LAST_USED_RESOLUTION_MS - 1000).toISOString();
		await env.DB.prepare("UPDATE api_keys SET last_used_at = ? WHERE id = ?").bind(stale, created.body.id).run();
		// Five minutes later the key's cached verification (60 s) would long have expired.
		await forgetKey(await sha256Hex(created.body.key));
		expect((await call("GET", "/api/workspaces", { key: created.body.key })).status).toBe(200);
		await expect.poll(lastUsed).not.toBe(stale);
		expect(Date.parse(await lastUsed())).toBeGreaterThanOrEqual(Date.parse(first));
	});

	it("a revoked key gets 401 on its very next request", async () => {
		const user = await createUser();
		const cookie = await signIn(user.email, user.password);
		const created = await call("POST", "/api/api-keys", {
			headers: { cookie },
			body: { workspaceId: user.workspaceIds[0], name: "temp" },
		});
		expect((await call("GET", "/api/workspaces", { key: created.body.key })).status).toBe(200);
		const revoked = await call("DELETE", `/api/api-keys/${created.body.id}`, { headers: { cookie } });
		expect(revoked.status).toBe(200);
		expect(revoked.body.revokedAt).toBeTruthy();
		expect((await call("GET", "/api/workspaces", { key: created.body.key })).status).toBe(401);
	});
});

describe("projects", () => {
	it("are created in the key's workspace, listed, and accepted on submission", async () => {
		const user = await createUser();
		const cookie = await signIn(user.email, user.password);
		const key = (
			await call("POST", "/api/api-keys", {
				headers: { cookie },
				body: { workspaceId: user.workspaceIds[0], name: "k" },
			})
		).body.key;
		const project = await call("POST", "/api/projects", { key, body: { name: "Podcast shorts" } });
		expect(project.status).toBe(201);
		expect(project.body).toMatchObject({ name: "Podcast shorts", workspaceId: user.workspaceIds[0] });
		expect((await call("GET", "/api/projects", { key })).body.projects.map((p: { id: string }) => p.id)).toEqual([
			project.body.id,
		]);
		const hostedUrl = fake().addSource(`https://videos.example.com/p/${crypto.randomUUID()}`, { duration: 30 });
		const video = await call("POST", "/api/videos/hosted", {
			key,
			body: { hostedUrl, projectId: project.body.id },
		});
		expect(video.status).toBe(201);
	});
});
