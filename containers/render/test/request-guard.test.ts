/**
 * The tier runs jobs for the Worker only. The attack this closes: any web page the operator opened
 * could POST `{"videoId":"_shared"}` as `text/plain` (a CORS-simple request, no preflight) to
 * /jobs/cleanup on loopback and delete the shared cache. Every refused request here must leave the
 * work folder as it was.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { RENDER_AUTH_WINDOW_SECONDS, renderJobs, signRenderRequest } from "@clipforge/contract";
import { createRenderApp, createRenderServer } from "../src/server.ts";
import { signedPost } from "./signed-post.ts";

const SERVER = join(import.meta.dirname, "../src/server.ts");
// Before the tier's modules load: they read WORK_DIR once.
const work = await vi.hoisted(async () => {
	const { mkdtempSync } = await import("node:fs");
	const { tmpdir } = await import("node:os");
	const dir = mkdtempSync(`${tmpdir()}/render-guard-`);
	process.env.WORK_DIR = dir;
	return dir;
});
let tier: string;
let close: () => void;
const cleanup = renderJobs.cleanup.path;
const sharedMarker = () => join(work, "_shared", "background.mp4");
const videoMarker = (id: string) => join(work, id, "source.mp4");

beforeAll(async () => {
	const server = createRenderServer().listen(0, "127.0.0.1");
	await new Promise((r) => server.once("listening", r));
	tier = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	close = () => server.close();
});

afterAll(() => {
	close?.();
	rmSync(work, { recursive: true, force: true });
});

beforeEach(() => {
	for (const file of [sharedMarker(), videoMarker("vid_keep")]) {
		mkdirSync(join(file, ".."), { recursive: true });
		writeFileSync(file, "x");
	}
});

const nothingDeleted = () => {
	expect(existsSync(sharedMarker())).toBe(true);
	expect(existsSync(videoMarker("vid_keep"))).toBe(true);
};

async function errorOf(response: Response) {
	return ((await response.json()) as { error: { code: string; message: string } }).error;
}

describe("requests that are not the Worker's are refused and change nothing", () => {
	it("a web page's CORS-simple text/plain POST to /jobs/cleanup (the original attack) → 415", async () => {
		const response = await fetch(tier + cleanup, {
			method: "POST",
			headers: { "content-type": "text/plain" },
			body: JSON.stringify({ videoId: "_shared" }),
		});
		expect(response.status).toBe(415);
		nothingDeleted();
	});

	it("the same with a form content type, and with no content type at all → 415", async () => {
		const types: Record<string, string>[] = [
			{ "content-type": "application/x-www-form-urlencoded" },
			{ "content-type": "multipart/form-data; boundary=x" },
			{},
		];
		for (const headers of types) {
			const response = await fetch(tier + cleanup, {
				method: "POST",
				headers,
				body: JSON.stringify({ videoId: "vid_keep" }),
			});
			expect(response.status).toBe(415);
		}
		nothingDeleted();
	});

	it("JSON without credentials → 401 unauthorized", async () => {
		const response = await fetch(tier + cleanup, {
			method: "POST",
			headers: { "content-type": "application/json" },
			body: JSON.stringify({ videoId: "vid_keep" }),
		});
		expect(response.status).toBe(401);
		expect((await errorOf(response)).code).toBe("unauthorized");
		nothingDeleted();
	});

	it("any request with an Origin header → 403, even correctly signed JSON", async () => {
		const body = JSON.stringify({ videoId: "vid_keep" });
		const authorization = await signRenderRequest(process.env.RENDER_SECRET!, {
			method: "POST",
			path: cleanup,
			body,
		});
		for (const origin of ["https://evil.example", "null", "http://127.0.0.1:8787"]) {
			const response = await fetch(tier + cleanup, {
				method: "POST",
				headers: { "content-type": "application/json", authorization, origin },
				body,
			});
			expect(response.status).toBe(403);
			expect((await errorOf(response)).code).toBe("forbidden");
		}
		expect((await fetch(`${tier}/healthz`, { headers: { origin: "https://evil.example" } })).status).toBe(403);
		nothingDeleted();
	});

	it("a signature made with another secret → 401", async () => {
		const response = await signedPost(
			tier,
			cleanup,
			{ videoId: "vid_keep" },
			"a-different-secret-that-is-long-enough-0123456789",
		);
		expect(response.status).toBe(401);
		expect((await errorOf(response)).message).toContain("invalid");
		nothingDeleted();
	});

	it("a bearer token, a malformed header, or the secret itself as a token → 401", async () => {
		for (const authorization of [
			`Bearer ${process.env.RENDER_SECRET}`,
			"Clipforge-HMAC-SHA256 t=1,n=x,s=y",
			process.env.RENDER_SECRET!,
		]) {
			const response = await fetch(tier + cleanup, {
				method: "POST",
				headers: { "content-type": "application/json", authorization },
				body: JSON.stringify({ videoId: "vid_keep" }),
			});
			expect(response.status).toBe(401);
		}
		nothingDeleted();
	});

	it("a signed request whose body, path or method was changed → 401", async () => {
		const signed = JSON.stringify({ videoId: "vid_other" });
		const authorization = await signRenderRequest(process.env.RENDER_SECRET!, {
			method: "POST",
			path: cleanup,
			body: signed,
		});
		const changedBody = await fetch(tier + cleanup, {
			method: "POST",
			headers: { "content-type": "application/json", authorization },
			body: JSON.stringify({ videoId: "vid_keep" }),
		});
		expect(changedBody.status).toBe(401);
		const forDownload = await signRenderRequest(process.env.RENDER_SECRET!, {
			method: "POST",
			path: renderJobs.download.path,
			body: JSON.stringify({ videoId: "vid_keep" }),
		});
		const changedPath = await fetch(tier + cleanup, {
			method: "POST",
			headers: { "content-type": "application/json", authorization: forDownload },
			body: JSON.stringify({ videoId: "vid_keep" }),
		});
		expect(changedPath.status).toBe(401);
		const asGet = await signRenderRequest(process.env.RENDER_SECRET!, {
			method: "GET",
			path: cleanup,
			body: JSON.stringify({ videoId: "vid_keep" }),
		});
		const changedMethod = await fetch(tier + cleanup, {
			method: "POST",
			headers: { "content-type": "application/json", authorization: asGet },
			body: JSON.stringify({ videoId: "vid_keep" }),
		});
		expect(changedMethod.status).toBe(401);
		nothingDeleted();
	});

	it("a signature older or newer than the window → 401 stale", async () => {
		const body = JSON.stringify({ videoId: "vid_keep" });
		for (const skew of [-(RENDER_AUTH_WINDOW_SECONDS + 30), RENDER_AUTH_WINDOW_SECONDS + 30]) {
			const authorization = await signRenderRequest(
				process.env.RENDER_SECRET!,
				{ method: "POST", path: cleanup, body },
				Date.now() + skew * 1000,
			);
			const response = await fetch(tier + cleanup, {
				method: "POST",
				headers: { "content-type": "application/json", authorization },
				body,
			});
			expect(response.status).toBe(401);
			expect((await errorOf(response)).message).toContain("stale");
		}
		nothingDeleted();
	});

	it("a captured request sent again (same nonce) → 401 replay", async () => {
		const body = JSON.stringify({ videoId: "vid_gone" });
		const authorization = await signRenderRequest(process.env.RENDER_SECRET!, {
			method: "POST",
			path: cleanup,
			body,
		});
		const send = () =>
			fetch(tier + cleanup, {
				method: "POST",
				headers: { "content-type": "application/json", authorization },
				body,
			});
		expect((await send()).status).toBe(200);
		const replay = await send();
		expect(replay.status).toBe(401);
		expect((await errorOf(replay)).message).toContain("replay");
	});
});

describe("the Worker's own requests", () => {
	it("a signed JSON cleanup of a video's folder works (and leaves the rest)", async () => {
		mkdirSync(join(work, "vid_done"), { recursive: true });
		writeFileSync(videoMarker("vid_done"), "x");
		const response = await signedPost(tier, cleanup, { videoId: "vid_done" });
		expect(response.status).toBe(200);
		expect(existsSync(join(work, "vid_done"))).toBe(false);
		nothingDeleted();
	});

	it("/healthz answers without credentials (liveness only)", async () => {
		expect((await fetch(`${tier}/healthz`)).status).toBe(200);
	});
});

describe("the server's configuration", () => {
	it("the app cannot be built without a secret of at least 32 characters", () => {
		expect(() => createRenderApp({ secret: "short" })).toThrow(/RENDER_SECRET/);
		const saved = process.env.RENDER_SECRET;
		delete process.env.RENDER_SECRET;
		try {
			expect(() => createRenderApp()).toThrow(/RENDER_SECRET is not set/);
		} finally {
			process.env.RENDER_SECRET = saved;
		}
	});

	const start = (env: Record<string, string | undefined>) =>
		new Promise<{ code: number | null; output: string }>((resolve) => {
			const child = spawn(process.execPath, [SERVER], {
				env: { PATH: process.env.PATH, WORK_DIR: work, PORT: "0", ...env },
				stdio: ["ignore", "pipe", "pipe"],
			});
			let output = "";
			const collect = (chunk: Buffer) => {
				output += chunk.toString();
				if (output.includes('"listening"')) child.kill();
			};
			child.stdout.on("data", collect);
			child.stderr.on("data", collect);
			child.on("close", (code) => resolve({ code, output }));
		});

	it("`node src/server.ts` without RENDER_SECRET exits 1 saying why", async () => {
		const { code, output } = await start({});
		expect(code).toBe(1);
		expect(output).toContain("RENDER_SECRET is not set");
	});

	it("listens on loopback unless RENDER_HOST says otherwise", async () => {
		const { output } = await start({ RENDER_SECRET: process.env.RENDER_SECRET });
		expect(output).toMatch(/"url":"http:\/\/127\.0\.0\.1:\d+"/);
		const configured = await start({ RENDER_SECRET: process.env.RENDER_SECRET, RENDER_HOST: "0.0.0.0" });
		expect(configured.output).toMatch(/"url":"http:\/\/0\.0\.0\.0:\d+"/);
	});
});

describe("a job limit per instance", () => {
	it("past its maximum of jobs the tier answers 503 busy (retryable) with Retry-After; cleanup still runs; a slot frees when a job ends", async () => {
		// A source that never answers keeps the first job running until the Worker gives up on it.
		const { createServer } = await import("node:http");
		const stalled = createServer(() => undefined).listen(0, "127.0.0.1");
		await new Promise((r) => stalled.once("listening", r));
		const slow = `http://127.0.0.1:${(stalled.address() as AddressInfo).port}/audio.wav`;
		// The same request again would join the running job (job-registry.ts): another one is refused.
		const other = `${slow}?take=2`;
		// A job whose caller left stops at once here (30 s by default, for the caller's retry to come back).
		const app = createRenderApp({ maxJobs: 1, abandonAfterMs: 0 });
		const job = async (path: string, body: unknown, signal?: AbortSignal) => {
			const text = JSON.stringify(body);
			const authorization = await signRenderRequest(process.env.RENDER_SECRET!, {
				method: "POST",
				path,
				body: text,
			});
			return app.fetch(
				new Request(`http://tier${path}`, {
					method: "POST",
					headers: { "content-type": "application/json", authorization },
					body: text,
					signal,
				}),
			);
		};
		try {
			const worker = new AbortController();
			const first = await job(renderJobs.transcribe.path, { audioUrl: slow, language: "en" }, worker.signal);
			expect(first.status).toBe(200); // streamed: the job runs
			const joined = new AbortController();
			expect(
				(await job(renderJobs.transcribe.path, { audioUrl: slow, language: "en" }, joined.signal)).status,
			).toBe(200);
			joined.abort();
			const refused = await job(renderJobs.transcribe.path, { audioUrl: other, language: "en" });
			expect(refused.status).toBe(503);
			expect(refused.headers.get("retry-after")).toBe("5");
			expect(await errorOf(refused)).toMatchObject({ code: "busy", retryable: true });
			expect((await job(cleanup, { videoId: "vid_other" })).status).toBe(200);
			nothingDeleted();

			worker.abort();
			await first.text().catch(() => undefined);
			await vi.waitFor(async () => expect((await job(cleanup, { videoId: "vid_other" })).status).toBe(200));
			await vi.waitFor(async () => {
				const again = new AbortController();
				const response = await job(
					renderJobs.transcribe.path,
					{ audioUrl: other, language: "en" },
					again.signal,
				);
				again.abort();
				expect(response.status).toBe(200);
			});
		} finally {
			stalled.closeAllConnections();
			stalled.close();
		}
	});
});
