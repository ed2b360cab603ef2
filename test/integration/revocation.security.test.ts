/**
 * Revocation and D1 sessions: a key revoked in this colo is refused at once, even when a request
 * that read D1 before the revoke caches it after; a bookmark only moves a read forward, and a
 * write (its authentication included) always starts at the primary.
 */
import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../../src/worker/env";
import { handleError } from "../../src/worker/errors";
import { authenticate } from "../../src/worker/middleware/auth";
import { sessionStart } from "../../src/worker/middleware/d1-session";
import { forgetKey, verifiedKey, type VerifiedKey } from "../../src/worker/services/key-cache";
import { createUser } from "../helpers/accounts";
import { call, signIn } from "../helpers/api";

const noBackground = (work: Promise<unknown>) => void work.catch(() => undefined);

describe("revoking a key", () => {
	it("a verification that read D1 before the revoke and caches after it is not trusted", async () => {
		const keyHash = `race-${crypto.randomUUID()}`;
		const key: VerifiedKey = { id: "key_race", workspaceId: "ws_race", lastUsedAt: null };
		let readD1!: () => void;
		const slowRead = new Promise<void>((resolve) => (readD1 = resolve));
		// Request A reads D1 (the key is still valid), slowly…
		const requestA = verifiedKey(
			keyHash,
			async () => {
				await slowRead;
				return key;
			},
			noBackground,
		);
		// …while the key is revoked (D1 updated, then the caches told)…
		await new Promise((resolve) => setTimeout(resolve, 5));
		await forgetKey(keyHash);
		readD1();
		// …and A finishes, caching what it read.
		expect(await requestA).toEqual(key);
		// The next request does not trust A's entry: it asks D1, which says revoked.
		let loads = 0;
		const next = await verifiedKey(
			keyHash,
			async () => {
				loads++;
				return null;
			},
			noBackground,
		);
		expect(loads).toBe(1);
		expect(next).toBeNull();
	});

	it("through the API: revoked, the very next request with it is 401, and stays so", async () => {
		const user = await createUser();
		const cookie = await signIn(user.email, user.password);
		const workspaceId = user.workspaceIds[0]!;
		const created = await call("POST", "/api/api-keys", { headers: { cookie }, body: { workspaceId, name: "x" } });
		const key = created.body.key as string;
		// Warm every cache, then revoke while reads are in flight.
		expect((await call("GET", "/api/workspaces", { key })).status).toBe(200);
		const inFlight = Array.from({ length: 5 }, () => call("GET", "/api/workspaces", { key }));
		expect((await call("DELETE", `/api/api-keys/${created.body.id}`, { headers: { cookie } })).status).toBe(200);
		await Promise.all(inFlight);
		for (let i = 0; i < 3; i++) expect((await call("GET", "/api/workspaces", { key })).status).toBe(401);
	});
});

describe("X-Clipforge-Bookmark", () => {
	it("a write starts at the primary whatever it sends", () => {
		for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
			for (const sent of [undefined, "first-unconstrained", "first-primary", "0000003f-00000002-00004f9a-abc"])
				expect(sessionStart(method, sent)).toBe("first-primary");
		}
	});

	it("a read takes a bookmark, never a session constraint or junk", () => {
		expect(sessionStart("GET", "0000003f-00000002-00004f9a-abc")).toBe("0000003f-00000002-00004f9a-abc");
		expect(sessionStart("GET", "first-primary")).toBe("first-unconstrained");
		expect(sessionStart("GET", "first-unconstrained")).toBe("first-unconstrained");
		expect(sessionStart("HEAD", "x".repeat(201))).toBe("first-unconstrained");
		expect(sessionStart("GET", "a b")).toBe("first-unconstrained");
	});

	it("sent on an unauthenticated write, it is still a 401 (authentication before anything else)", async () => {
		const refused = await call("POST", "/api/projects", {
			headers: { "x-clipforge-bookmark": "first-unconstrained" },
			body: { name: "p" },
		});
		expect(refused.status).toBe(401);
	});
});

describe("a signed-in session is authenticated on the primary", () => {
	/** The real middleware behind a D1 session whose reads (a replica's) must not decide who is signed in. */
	function appWithReplica(replica: D1Database) {
		const app = new Hono<AppEnv>();
		app.onError(handleError);
		app.use("*", async (c, next) => {
			c.set("primaryDb", env.DB);
			c.env = { ...c.env, DB: replica };
			await next();
		});
		app.use("*", authenticate);
		app.get("/whoami", (c) => c.json(c.get("principal")));
		return app;
	}

	it("a replica that may lag (here: one that may not be read at all) is never asked: sign-out and password changes hold at once", async () => {
		const user = await createUser();
		const cookie = await signIn(user.email, user.password);
		const replica = new Proxy({} as D1Database, {
			get() {
				throw new Error("authentication read a replica");
			},
		});
		const app = appWithReplica(replica);
		const answer = await app.request("/whoami", { headers: { cookie } }, env);
		expect(answer.status).toBe(200);
		expect(await answer.json()).toMatchObject({ kind: "session", userId: user.userId });
		expect((await call("POST", "/api/auth/logout", { headers: { cookie } })).status).toBeLessThan(300);
		expect((await app.request("/whoami", { headers: { cookie } }, env)).status).toBe(401);
	});
});
