/**
 * Secrets: the development SIGNING_SECRET that was committed in wrangler.toml signs nothing here,
 * a Worker that still runs with it serves loopback only, and render-tier requests are signed.
 */
import { env } from "cloudflare:workers";
import { verifyRenderRequest } from "@clipforge/contract";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/worker/app";
import {
	developmentSecretIn,
	isLoopbackRequest,
	KNOWN_DEVELOPMENT_SECRETS,
} from "../../src/worker/middleware/refuse-dev-secrets";
import { RenderTierError, renderClientOver } from "../../src/worker/services/render-client";
import { signInternalObjectUrl } from "../../src/worker/services/signing";
import { call } from "../helpers/api";

const OLD_COMMITTED_SECRET = "local-dev-signing-secret-not-for-production";
const app = createApp();
const ctx = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;

describe("the development secret once committed in wrangler.toml", () => {
	it("is not this Worker's secret, and a URL signed with it is refused (403)", async () => {
		expect(env.SIGNING_SECRET).not.toBe(OLD_COMMITTED_SECRET);
		const key = `sources/vid_${crypto.randomUUID().replace(/-/g, "")}/source.mp4`;
		await env.MEDIA.put(key, "secret bytes");
		const forged = new URL(
			await signInternalObjectUrl(
				{ SIGNING_SECRET: OLD_COMMITTED_SECRET, INTERNAL_BASE_URL: "http://clipforge.test" },
				key,
				"GET",
			),
		);
		const refused = await call("GET", forged.pathname + forged.search);
		expect(refused.status).toBe(403);
		expect(refused.body.error.code).toBe("forbidden");
		const genuine = new URL(await signInternalObjectUrl(env, key, "GET"));
		expect((await call("GET", genuine.pathname + genuine.search)).status).toBe(200);
	});

	it("makes the Worker answer 500 to any request not from loopback, with a log line naming the secret", async () => {
		const logged: string[] = [];
		const original = console.error;
		// Log lines are objects (lib/log.ts): read as Workers Logs stores them, JSON.
		console.error = (...args: unknown[]) =>
			logged.push(args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" "));
		try {
			const devEnv = { ...env, SIGNING_SECRET: OLD_COMMITTED_SECRET };
			for (const url of [
				"https://clipforge.example.com/healthz",
				"https://clipforge.example.com/api/workspaces",
				"http://192.168.1.20:8787/healthz",
			]) {
				const response = await app.fetch(new Request(url), devEnv, ctx);
				expect(response.status, url).toBe(500);
				const body = (await response.json()) as { error: { code: string; message: string } };
				expect(body.error.code).toBe("internal_error");
				expect(body.error.message).not.toContain(OLD_COMMITTED_SECRET);
			}
			// Loopback by name but from elsewhere (a forwarded port): still refused.
			const forwarded = await app.fetch(
				new Request("http://127.0.0.1:8787/healthz", { headers: { "cf-connecting-ip": "203.0.113.7" } }),
				devEnv,
				ctx,
			);
			expect(forwarded.status).toBe(500);
			expect(logged.some((line) => line.includes("SIGNING_SECRET is a known development value"))).toBe(true);
			expect(logged.join("\n")).not.toContain(OLD_COMMITTED_SECRET);
			// A developer's own machine still works.
			for (const url of [
				"http://127.0.0.1:8787/healthz",
				"http://localhost:8787/healthz",
				"http://[::1]:8787/healthz",
			]) {
				expect(
					(await app.fetch(new Request(url, { headers: { "cf-connecting-ip": "127.0.0.1" } }), devEnv, ctx))
						.status,
					url,
				).toBe(200);
			}
		} finally {
			console.error = original;
		}
	});

	it("is recognised as RENDER_SECRET too, and random secrets are not", () => {
		expect(developmentSecretIn({ RENDER_SECRET: OLD_COMMITTED_SECRET })).toBe("RENDER_SECRET");
		expect(
			developmentSecretIn({ SIGNING_SECRET: env.SIGNING_SECRET, RENDER_SECRET: env.RENDER_SECRET }),
		).toBeNull();
		expect(KNOWN_DEVELOPMENT_SECRETS.has(OLD_COMMITTED_SECRET)).toBe(true);
		expect(isLoopbackRequest(new Request("http://127.0.0.1.evil.example/"))).toBe(false);
		expect(isLoopbackRequest(new Request("http://localhost.example/"))).toBe(false);
	});
});

describe("the render client", () => {
	it("signs every job request with RENDER_SECRET over method, path and body, as JSON", async () => {
		const seen: { path: string; init: RequestInit }[] = [];
		const client = renderClientOver(
			async (path, init) => {
				seen.push({ path, init });
				return Response.json({ ok: true });
			},
			1000,
			env.RENDER_SECRET,
		);
		await client.run("cleanup", { videoId: "vid_abc" });
		const { path, init } = seen[0]!;
		const headers = new Headers(init.headers);
		expect(headers.get("content-type")).toBe("application/json");
		const verdict = await verifyRenderRequest(env.RENDER_SECRET, headers.get("authorization"), {
			method: "POST",
			path,
			body: String(init.body),
		});
		expect(verdict.ok).toBe(true);
		expect(
			(
				await verifyRenderRequest("another-secret-of-sufficient-length-000", headers.get("authorization"), {
					method: "POST",
					path,
					body: String(init.body),
				})
			).ok,
		).toBe(false);
	});

	it("without a usable RENDER_SECRET sends nothing and says which secret is missing", async () => {
		for (const secret of [undefined, "", "too-short"]) {
			let sent = 0;
			const client = renderClientOver(
				async () => {
					sent++;
					return Response.json({ ok: true });
				},
				1000,
				secret,
			);
			const error = await client.run("cleanup", { videoId: "vid_abc" }).catch((e: unknown) => e);
			expect(error).toBeInstanceOf(RenderTierError);
			expect((error as RenderTierError).message).toContain("RENDER_SECRET");
			expect((error as RenderTierError).retryable).toBe(false);
			expect(sent).toBe(0);
		}
	});
});
