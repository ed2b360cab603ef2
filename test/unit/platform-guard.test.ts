/**
 * The guard every Workers-runtime test runs under (test/setup/platform-guard.ts) refuses what D1
 * and Workflows refuse, and counts a batch's statements once each.
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { guard } from "../setup/platform-guard";
import { D1_LIMITS } from "../helpers/platform-limits";

// The violations these tests cause on purpose are theirs: taken before the guard's own check, and
// kept out of the run's report of the largest values seen.
let saved: typeof guard.largest;
beforeEach(() => {
	saved = structuredClone(guard.largest);
});
afterEach(() => {
	guard.violations.splice(0);
	guard.largest = saved;
});

describe("the platform guard", () => {
	it("fails a query with more than 100 bound parameters, as D1 does", async () => {
		const placeholders = Array.from({ length: 101 }, () => "?").join(", ");
		const params = Array.from({ length: 101 }, (_, n) => n);
		await expect(
			Promise.resolve().then(() =>
				env.DB.prepare(`SELECT ${placeholders}`)
					.bind(...params)
					.all(),
			),
		).rejects.toThrow(/too many SQL variables: 101 bound parameters/);
		expect(guard.violations).toHaveLength(1);
		const fine = Array.from({ length: 100 }, () => "?").join(", ");
		await env.DB.prepare(`SELECT ${fine}`)
			.bind(...params.slice(0, 100))
			.all();
	});

	it("fails a statement over 100 KB", async () => {
		const sql = `SELECT '${"x".repeat(D1_LIMITS.statementBytes)}'`;
		await expect(Promise.resolve().then(() => env.DB.prepare(sql).first())).rejects.toThrow(/statement too long/);
	});

	it("fails a value over 2 MB", async () => {
		await expect(
			Promise.resolve().then(() =>
				env.DB.prepare("SELECT ?")
					.bind("x".repeat(D1_LIMITS.valueBytes + 1))
					.first(),
			),
		).rejects.toThrow(/a value of 2000001 bytes/);
	});

	it("fails the 1,001st query of one invocation, counting each statement of a batch", async () => {
		await guard.within("a test invocation", async () => {
			await env.DB.batch(Array.from({ length: 990 }, () => env.DB.prepare("SELECT 1")));
			for (let k = 0; k < 10; k++) await env.DB.prepare("SELECT 1").first();
			expect(guard.largest.queriesPerInvocation.value).toBe(1000);
			await expect(Promise.resolve().then(() => env.DB.prepare("SELECT 1").first())).rejects.toThrow(
				/more than 1000 queries in one invocation \(a test invocation\)/,
			);
		});
		// Another invocation starts from zero; the test's own queries are no invocation.
		await guard.within("the next", () => env.DB.prepare("SELECT 1").first());
		for (let k = 0; k < 5; k++) await env.DB.prepare("SELECT 1").first();
	});

	it("fails the 1,001st R2 operation of one invocation", async () => {
		await guard.within("an R2-heavy invocation", async () => {
			for (let k = 0; k < 1000; k++) await env.MEDIA.head(`missing/${k}`);
			await expect(Promise.resolve().then(() => env.MEDIA.head("missing/last"))).rejects.toThrow(
				/R2: more than 1000 operations in one invocation \(an R2-heavy invocation, at head\)/,
			);
		});
	});

	it("fails the test when the code under test swallowed the error", () => {
		guard.violations.push("D1_ERROR: swallowed by a catch-all");
		// The setup file's afterEach would fail on this; the test's own afterEach clears it first.
		expect(guard.violations).toEqual(["D1_ERROR: swallowed by a catch-all"]);
	});
});
