/** Sessions: a password change or an admin reset ends them, the cookie is __Host- only, and the cron purges what expired. */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/worker/index";
import { hashPassword } from "../../src/worker/services/passwords";
import { setPasswordSql } from "../../src/worker/db/bootstrap";
import { createUser, createWorkspace } from "../helpers/accounts";
import { call, signIn } from "../helpers/api";

const asCookie = (setCookie: string | null) => (setCookie ?? "").split(";")[0]!;
const canRead = async (cookie: string) =>
	(await call("GET", "/api/workspaces", { headers: { cookie } })).status === 200;

describe("changing a password", () => {
	it("ends every session of the user at once; the browser that changed it gets a fresh one", async () => {
		const user = await createUser();
		const stolen = await signIn(user.email, user.password);
		const mine = await signIn(user.email, user.password);
		const changed = await call("POST", "/api/auth/password", {
			headers: { cookie: mine },
			body: { currentPassword: user.password, newPassword: "a new long password" },
		});
		expect(changed.status).toBe(200);
		const fresh = asCookie(changed.response.headers.get("set-cookie"));
		expect(fresh).toMatch(/^__Host-cf_session=/);
		expect(await canRead(stolen)).toBe(false);
		expect(await canRead(mine)).toBe(false);
		expect(await canRead(fresh)).toBe(true);
		expect(
			(await call("POST", "/api/auth/login", { body: { email: user.email, password: user.password } })).status,
		).toBe(401);
		expect(
			(await call("POST", "/api/auth/login", { body: { email: user.email, password: "a new long password" } }))
				.status,
		).toBe(200);
	});

	it("needs the current password, a session (not an API key) and a new password of 8+ characters", async () => {
		const user = await createUser();
		const cookie = await signIn(user.email, user.password);
		const wrong = await call("POST", "/api/auth/password", {
			headers: { cookie },
			body: { currentPassword: "not it", newPassword: "a new long password" },
		});
		expect(wrong.status).toBe(401);
		expect(await canRead(cookie)).toBe(true);
		expect(
			(
				await call("POST", "/api/auth/password", {
					headers: { cookie },
					body: { currentPassword: user.password, newPassword: "short" },
				})
			).status,
		).toBe(400);
		const { apiKey } = await createWorkspace();
		const byKey = await call("POST", "/api/auth/password", {
			key: apiKey,
			body: { currentPassword: "x", newPassword: "a new long password" },
		});
		expect(byKey.status).toBe(403);
		expect(
			(
				await call("POST", "/api/auth/password", {
					body: { currentPassword: "x", newPassword: "a new long password" },
				})
			).status,
		).toBe(401);
		expect(
			(await call("POST", "/api/auth/login", { body: { email: user.email, password: user.password } })).status,
		).toBe(200);
	});

	it("guessing the current password through a stolen session backs off like sign-in", async () => {
		const user = await createUser();
		const cookie = await signIn(user.email, user.password);
		const statuses = [];
		for (let i = 0; i < 8; i++) {
			statuses.push(
				(
					await call("POST", "/api/auth/password", {
						headers: { cookie, "cf-connecting-ip": "192.0.2.77" },
						body: { currentPassword: `guess-${i}`, newPassword: "a new long password" },
					})
				).status,
			);
		}
		expect(statuses.slice(0, 6)).toEqual([401, 401, 401, 401, 401, 401]);
		expect(statuses[7]).toBe(429);
	});

	it("an admin reset (npm run admin -- reset-password) ends every session too", async () => {
		const user = await createUser();
		const cookie = await signIn(user.email, user.password);
		const statements = setPasswordSql(user.email, await hashPassword("reset by the admin"))
			.split(";")
			.map((s) => s.trim())
			.filter(Boolean);
		await env.DB.batch(statements.map((s) => env.DB.prepare(s)));
		expect(await canRead(cookie)).toBe(false);
		expect(
			(await call("POST", "/api/auth/login", { body: { email: user.email, password: "reset by the admin" } }))
				.status,
		).toBe(200);
	});
});

describe("the __Host- session cookie", () => {
	it("the old cf_session name is not accepted, even with a live session's token; signing in clears it", async () => {
		const user = await createUser();
		const login = await call("POST", "/api/auth/login", { body: { email: user.email, password: user.password } });
		const token = asCookie(login.response.headers.get("set-cookie")).split("=")[1]!;
		expect(await canRead(`__Host-cf_session=${token}`)).toBe(true);
		expect(await canRead(`cf_session=${token}`)).toBe(false);
		expect(login.response.headers.get("set-cookie")).toMatch(/(^|, )cf_session=; Max-Age=0/);
	});

	it("logout ends the session of either cookie name", async () => {
		const user = await createUser();
		const cookie = await signIn(user.email, user.password);
		const token = cookie.split("=")[1]!;
		await call("POST", "/api/auth/logout", { headers: { cookie: `cf_session=${token}` } });
		expect(await canRead(cookie)).toBe(false);
	});
});

describe("the cron purges", () => {
	it("expired sessions, idempotency keys past 24 h and quiet sign-in keys; nothing still live", async () => {
		const user = await createUser();
		const { workspaceId } = await createWorkspace();
		const old = new Date(Date.now() - 25 * 3600_000).toISOString();
		const stamp = crypto.randomUUID();
		await env.DB.batch([
			env.DB.prepare("INSERT INTO sessions (id, token_hash, user_id, expires_at) VALUES (?, ?, ?, ?)").bind(
				`ses_old_${stamp}`,
				`h_old_${stamp}`,
				user.userId,
				"2020-01-01T00:00:00.000Z",
			),
			env.DB.prepare("INSERT INTO sessions (id, token_hash, user_id, expires_at) VALUES (?, ?, ?, ?)").bind(
				`ses_live_${stamp}`,
				`h_live_${stamp}`,
				user.userId,
				"2999-01-01T00:00:00.000Z",
			),
			env.DB.prepare(
				"INSERT INTO idempotency_keys (workspace_id, key, request_hash, created_at) VALUES (?, ?, 'h', ?)",
			).bind(workspaceId, `old-${stamp}`, old),
			env.DB.prepare("INSERT INTO idempotency_keys (workspace_id, key, request_hash) VALUES (?, ?, 'h')").bind(
				workspaceId,
				`new-${stamp}`,
			),
			env.DB.prepare(
				"INSERT INTO login_throttle (key, attempts, last_attempt_at, next_allowed_at, nonce) VALUES (?, 3, ?, 0, 'n')",
			).bind(`ip:old-${stamp}`, Date.now() - 2 * 3600_000),
			env.DB.prepare(
				"INSERT INTO login_throttle (key, attempts, last_attempt_at, next_allowed_at, nonce) VALUES (?, 9, ?, ?, 'n')",
			).bind(`ip:waiting-${stamp}`, Date.now() - 2 * 3600_000, Date.now() + 60_000),
		]);
		const ctx = createExecutionContext();
		worker.scheduled(createScheduledController({ scheduledTime: new Date(), cron: "*/5 * * * *" }), env, ctx);
		await waitOnExecutionContext(ctx);
		const ids = async (sql: string) =>
			(await env.DB.prepare(sql).all<{ id: string }>()).results
				.map((r) => r.id)
				.filter((id) => id.includes(stamp));
		expect(await ids("SELECT id FROM sessions")).toEqual([`ses_live_${stamp}`]);
		expect(await ids("SELECT key AS id FROM idempotency_keys")).toEqual([`new-${stamp}`]);
		expect(await ids("SELECT key AS id FROM login_throttle")).toEqual([`ip:waiting-${stamp}`]);
	});
});

describe("CSRF: a signed-in write must come from this site", () => {
	it("a write with the cookie from another origin (or Sec-Fetch-Site cross-site/same-site) is 403, bodiless POSTs too; same-origin and API keys go on", async () => {
		const workspace = await createWorkspace();
		const owner = await createUser({ workspaces: 0 });
		await env.DB.prepare("INSERT INTO memberships (user_id, workspace_id, role) VALUES (?, ?, 'owner')")
			.bind(owner.userId, workspace.workspaceId)
			.run();
		const cookie = await signIn(owner.email, owner.password);
		const rotate = `/api/workspaces/${workspace.workspaceId}/webhook/secret`;
		const secretOf = async () =>
			(await env.DB.prepare("SELECT webhook_secret AS s FROM workspaces WHERE id = ?")
				.bind(workspace.workspaceId)
				.first<string>("s")) ?? null;
		const before = await secretOf();
		const hostile: Record<string, string>[] = [
			{ cookie, origin: "https://evil.example" },
			{ cookie, origin: "null" },
			{ cookie, "sec-fetch-site": "cross-site" },
			{ cookie, "sec-fetch-site": "same-site" },
		];
		for (const headers of hostile) {
			// A bodiless POST (no Content-Type, so the JSON check does not stop it) and a JSON write.
			const bodiless = await call("POST", rotate, { headers: { ...headers, "content-length": "0" } });
			expect(bodiless.status, JSON.stringify(headers)).toBe(403);
			expect(bodiless.body.error.code).toBe("forbidden");
			const json = await call("POST", "/api/projects", {
				headers,
				body: { workspaceId: workspace.workspaceId, name: "csrf" },
			});
			expect(json.status, JSON.stringify(headers)).toBe(403);
		}
		expect(await secretOf()).toBe(before);
		// Reads are not writes; the dashboard's own writes and API keys go on.
		expect(
			(await call("GET", "/api/workspaces", { headers: { cookie, origin: "https://evil.example" } })).status,
		).toBe(200);
		const same = await call("POST", rotate, {
			headers: { cookie, origin: "http://clipforge.test", "sec-fetch-site": "same-origin" },
		});
		expect(same.status, JSON.stringify(same.body)).toBe(200);
		const keyed = await call("POST", "/api/projects", {
			key: workspace.apiKey,
			headers: { origin: "https://elsewhere.example" },
			body: { name: "from a script" },
		});
		expect(keyed.status).toBe(201);
	});

	it("signing in or out from another site is 403 (login CSRF): no cookie is set, no attempt counted; this site's and scripts' sign-ins work", async () => {
		const user = await createUser();
		const body = { email: user.email, password: user.password };
		const crossSite: Record<string, string>[] = [
			{ origin: "https://evil.example" },
			{ "sec-fetch-site": "cross-site" },
		];
		for (const headers of crossSite) {
			const login = await call("POST", "/api/auth/login", { headers, body });
			expect(login.status, JSON.stringify(headers)).toBe(403);
			expect(login.body.error.code).toBe("forbidden");
			expect(login.response.headers.get("set-cookie")).toBeNull();
			expect((await call("POST", "/api/auth/logout", { headers })).status).toBe(403);
		}
		const fromSite = await call("POST", "/api/auth/login", {
			headers: { origin: "http://clipforge.test", "sec-fetch-site": "same-origin" },
			body,
		});
		expect(fromSite.status).toBe(200);
		expect((await call("POST", "/api/auth/login", { body })).status).toBe(200);
	});
});
