/**
 * Password guessing against POST /api/auth/login: backoff per email and per client network, counted
 * before the password is hashed, so neither a burst of parallel guesses nor rotating emails or
 * IPv6 addresses gets more tries than the rules give.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/worker/services/crypto";
import { clientNetwork, LOGIN_BACKOFF } from "../../src/worker/services/login-throttle";
import { createUser } from "../helpers/accounts";
import { call } from "../helpers/api";

let ipCounter = 0;
/** A fresh client address per test, so tests do not share an IP budget. */
const freshIp = () => `198.51.100.${(ipCounter++ % 250) + 1}`;
const login = (email: string, password: string, ip: string) =>
	call("POST", "/api/auth/login", { body: { email, password }, headers: { "cf-connecting-ip": ip } });
const emailKey = async (email: string) => `email:${await sha256Hex(email.toLowerCase())}`;
/** Lets `key` try again now, as if its wait had passed. */
const waitOut = (key: string) =>
	env.DB.prepare("UPDATE login_throttle SET next_allowed_at = 0 WHERE key = ?").bind(key).run();
const rowOf = (key: string) =>
	env.DB.prepare(
		"SELECT attempts, last_attempt_at AS last, next_allowed_at AS next FROM login_throttle WHERE key = ?",
	)
		.bind(key)
		.first<{ attempts: number; last: number; next: number }>();

describe("sign-in backoff per email", () => {
	it("five free tries, then each further try waits twice as long; too early → 429 with Retry-After, even with the right password", async () => {
		const user = await createUser();
		const ip = freshIp();
		for (let i = 0; i < LOGIN_BACKOFF.email.free + 1; i++)
			expect((await login(user.email, "wrong-password", ip)).status, `try ${i + 1}`).toBe(401);
		const early = await login(user.email, user.password, ip);
		expect(early.status).toBe(429);
		expect(early.body.error.code).toBe("rate_limited");
		expect(early.body.error.message).toMatch(/for this account/);
		expect(Number(early.response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
		expect(early.response.headers.get("set-cookie")).toBeNull();

		const key = await emailKey(user.email);
		const waits: number[] = [];
		for (let i = 0; i < 4; i++) {
			await waitOut(key);
			expect((await login(user.email, "wrong-password", ip)).status).toBe(401);
			const row = (await rowOf(key))!;
			waits.push(row.next - row.last);
		}
		expect(waits).toEqual([2000, 4000, 8000, 16000]);

		// A refused try is not counted: hammering while waiting does not stretch the wait.
		const before = (await rowOf(key))!;
		for (let i = 0; i < 5; i++) expect((await login(user.email, "wrong-password", ip)).status).toBe(429);
		expect(await rowOf(key)).toEqual(before);

		await waitOut(key);
		expect((await login(user.email, user.password, ip)).status).toBe(200);
		expect(await rowOf(key)).toBeNull(); // signing in clears the account's count
	});

	it("the wait is capped at 15 minutes", async () => {
		const user = await createUser();
		const key = await emailKey(user.email);
		await env.DB.prepare(
			"INSERT INTO login_throttle (key, attempts, last_attempt_at, next_allowed_at, nonce) VALUES (?, 40, ?, 0, 'x')",
		)
			.bind(key, Date.now())
			.run();
		expect((await login(user.email, "wrong-password", freshIp())).status).toBe(401);
		const row = (await rowOf(key))!;
		expect(row.next - row.last).toBe(15 * 60_000);
		const refused = await login(user.email, user.password, freshIp());
		expect(Number(refused.response.headers.get("retry-after"))).toBeGreaterThan(14 * 60);
	});

	it("a burst of 40 parallel guesses: only the free tries and one more reach the password check", async () => {
		const user = await createUser();
		const results = await Promise.all(
			Array.from({ length: 40 }, (_, i) => login(user.email, `guess-${i}`, freshIp())),
		);
		expect(results.filter((r) => r.status === 401)).toHaveLength(LOGIN_BACKOFF.email.free + 1);
		expect(results.filter((r) => r.status === 429)).toHaveLength(40 - LOGIN_BACKOFF.email.free - 1);
	});

	it("unknown emails are throttled the same way (no hint which accounts exist)", async () => {
		const ip = freshIp();
		const email = `nobody-${crypto.randomUUID()}@example.com`;
		const statuses = [];
		for (let i = 0; i < LOGIN_BACKOFF.email.free + 2; i++) statuses.push((await login(email, "x", ip)).status);
		expect(statuses.at(-1)).toBe(429);
	});
});

describe("sign-in backoff per client network", () => {
	it("spraying many emails from one address hits the address's limit; another address is unaffected", async () => {
		const ip = freshIp();
		const other = await createUser();
		const sprayed = await Promise.all(
			Array.from({ length: LOGIN_BACKOFF.ip.free + 10 }, (_, i) =>
				login(`sprayed-${i}-${crypto.randomUUID()}@example.com`, "Winter2026!", ip),
			),
		);
		expect(sprayed.filter((r) => r.status === 401)).toHaveLength(LOGIN_BACKOFF.ip.free + 1);
		// The rest were refused by the address's backoff, before any password was checked. (A sign-in
		// sent after the spray is not asserted: the first delay is 1 s, and 31 password hashes may take
		// longer than that on a loaded machine.)
		const blocked = sprayed.filter((r) => r.status === 429);
		expect(blocked).toHaveLength(9);
		for (const refused of blocked) expect(refused.body.error.message).toMatch(/from this network/);
		expect((await login(other.email, other.password, freshIp())).status).toBe(200);
	});

	it("rotating IPv6 addresses inside one /64 counts as one network", async () => {
		const prefix = `2001:db8:${(ipCounter++).toString(16)}:1`;
		const results = [];
		for (let i = 0; i < LOGIN_BACKOFF.ip.free + 3; i++) {
			results.push(
				(await login(`v6-${i}-${crypto.randomUUID()}@example.com`, "x", `${prefix}::${(i + 1).toString(16)}`))
					.status,
			);
		}
		expect(results.at(-1)).toBe(429);
		expect(clientNetwork("2001:db8:0:1::1")).toBe(clientNetwork("2001:0db8:0000:0001:ffff:ffff:ffff:ffff"));
		expect(clientNetwork("2001:db8:0:2::1")).not.toBe(clientNetwork("2001:db8:0:1::1"));
		expect(clientNetwork("203.0.113.7")).toBe("203.0.113.7");
	});

	it("successful sign-ins from one address do not use up its budget (people behind one NAT)", async () => {
		const ip = freshIp();
		const user = await createUser();
		for (let i = 0; i < LOGIN_BACKOFF.ip.free + 5; i++)
			expect((await login(user.email, user.password, ip)).status, `sign-in ${i + 1}`).toBe(200);
	}, 60_000);
});
