/**
 * One tenant holding the import instance (issue 45, N3): a background or watermark import of a
 * user's URL holds a job on the one instance all tenants share. A URL that drips its bytes, or
 * stops sending, is stopped within the import's pace (IMPORT_PACE: a wall-clock budget, a longest
 * stall, a minimum speed), not after ffmpeg's ten minutes; and a workspace runs at most
 * WORKSPACE_JOB_LIMITS.importMedia imports at once, its excess refused with its own 429.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderJobs, signRenderRequest, WORKSPACE_JOB_LIMITS } from "@clipforge/contract";
import { importMedia, type ImportPace } from "../src/media/import-media.ts";
import { createRenderServer, createRenderTier } from "../src/server.ts";
import { signedPost } from "./signed-post.ts";

let dir: string;
let video: Buffer;
let slow: Server;
let slowUrl: string;
let tier: Server;
let tierUrl: string;

/** Serves the video: `/drip` 1 KB every 500 ms, `/stall` its first 16 KB and then nothing; `/hang` never answers. */
function slowServer(): Server {
	return createServer((req, res) => {
		if (req.url?.startsWith("/hang")) return;
		res.writeHead(200, { "content-type": "video/mp4", "content-length": String(video.length) });
		if (req.url?.startsWith("/stall")) {
			res.write(video.subarray(0, 16 * 1024));
			return;
		}
		let sent = 0;
		const timer = setInterval(() => {
			if (res.destroyed || sent >= video.length) return clearInterval(timer);
			res.write(video.subarray(sent, sent + 1024));
			sent += 1024;
		}, 500);
		res.on("close", () => clearInterval(timer));
	});
}

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), "import-pace-"));
	process.env.WORK_DIR = mkdtempSync(join(tmpdir(), "import-pace-work-"));
	const path = join(dir, "bg.mp4");
	execFileSync("ffmpeg", [
		...["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25:duration=10"],
		...["-c:v", "libx264", "-preset", "ultrafast", "-b:v", "600k", "-movflags", "+faststart", path],
	]);
	video = readFileSync(path);
	slow = slowServer().listen(0, "127.0.0.1");
	await new Promise((r) => slow.once("listening", r));
	slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
	tier = createRenderServer({ abandonAfterMs: 100 }).listen(0, "127.0.0.1");
	await new Promise((r) => tier.once("listening", r));
	tierUrl = `http://127.0.0.1:${(tier.address() as AddressInfo).port}`;
});

afterAll(() => {
	slow?.closeAllConnections();
	slow?.close();
	tier?.closeAllConnections();
	tier?.close();
	for (const d of [dir, process.env.WORK_DIR!]) rmSync(d, { recursive: true, force: true });
});

const PACE: ImportPace = {
	budgetMs: { image: 10_000, video: 20_000 },
	probeMs: 10_000,
	stallSeconds: 2,
	graceMs: 2_000,
	minSpeed: 0.5,
};
const request = (path: string) => ({
	kind: "background" as const,
	url: `${slowUrl}${path}`,
	putUrl: `${slowUrl}/nowhere`,
	limits: null,
});

describe("an import of a slow URL", () => {
	it("that drips its bytes is stopped once it falls behind the minimum speed, saying why", async () => {
		const started = Date.now();
		await expect(
			importMedia(request("/drip"), () => undefined, AbortSignal.timeout(60_000), PACE),
		).rejects.toMatchObject({
			code: "unsupported_source",
			message: expect.stringMatching(/arrived too slowly/),
		});
		expect(Date.now() - started).toBeLessThan(PACE.budgetMs.video);
	});

	it("that stops sending is stopped after the longest stall", async () => {
		const started = Date.now();
		await expect(
			importMedia(request("/stall"), () => undefined, AbortSignal.timeout(60_000), PACE),
		).rejects.toMatchObject({
			code: "unsupported_source",
		});
		expect(Date.now() - started).toBeLessThan(15_000);
	});
});

describe("a workspace's share of the import jobs", () => {
	it("its excess is refused with 429 workspace_busy while another workspace's import is taken", async () => {
		const limit = WORKSPACE_JOB_LIMITS.importMedia;
		const controllers: AbortController[] = [];
		const start = async (workspaceId: string, n: number) => {
			const controller = new AbortController();
			controllers.push(controller);
			const body = { ...request(`/drip?${workspaceId}-${n}`), workspaceId };
			return signedPost(tierUrl, renderJobs.importMedia.path, body, undefined, controller.signal);
		};
		try {
			const held = await Promise.all(Array.from({ length: limit }, (_, n) => start("wsp_greedy", n)));
			expect(held.map((r) => r.status)).toEqual(held.map(() => 200));
			const refused = await start("wsp_greedy", limit);
			expect(refused.status).toBe(429);
			expect(refused.headers.get("retry-after")).toBe("1");
			expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("workspace_busy");
			expect((await start("wsp_other", 0)).status).toBe(200);
		} finally {
			for (const c of controllers) c.abort();
		}
	});
});

describe("a probe nobody waits for any more", () => {
	it("is stopped as soon as its caller leaves (the Worker's request ended), not 30 s later", async () => {
		const tier = createRenderTier();
		const body = JSON.stringify({ url: `${slowUrl}/hang.mp4`, workspaceId: "wsp_gone" });
		const path = renderJobs.probe.path;
		const authorization = await signRenderRequest(process.env.RENDER_SECRET!, { method: "POST", path, body });
		const caller = new AbortController();
		const answer = tier.app.fetch(
			new Request(`http://tier${path}`, {
				method: "POST",
				headers: { "content-type": "application/json", authorization },
				body,
				signal: caller.signal,
			}),
		);
		await expect.poll(() => tier.registry.runningCount).toBe(1);
		// Still running a while later: the URL never answers.
		await new Promise((r) => setTimeout(r, 1_000));
		expect(tier.registry.runningCount).toBe(1);
		caller.abort();
		const left = Date.now();
		await expect.poll(() => tier.registry.runningCount, { timeout: 5_000 }).toBe(0);
		expect(Date.now() - left).toBeLessThan(3_000);
		await Promise.resolve(answer).catch(() => undefined);
	});
});
