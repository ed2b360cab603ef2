/**
 * The tier's log lines (its stdout: the Containers logs in Cloudflare's dashboard) name the video a
 * job is for, so an operator finds a failed video's jobs there by its id, as in Workers Logs.
 */
import { mkdtempSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { renderJobs } from "@clipforge/contract";
import { createRenderServer } from "../src/server.ts";
import { signedPost } from "./signed-post.ts";

let tier: string;
let close: () => void;

beforeAll(async () => {
	process.env.WORK_DIR = mkdtempSync(join(tmpdir(), "render-test-logs-"));
	const server = createRenderServer().listen(0, "127.0.0.1");
	await new Promise((resolve) => server.once("listening", resolve));
	tier = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	close = () => server.close();
});

afterAll(() => close?.());

it("a job's line carries its video's id", async () => {
	const lines: string[] = [];
	vi.stubEnv("RENDER_QUIET", "false");
	const spy = vi.spyOn(console, "log").mockImplementation((line: unknown) => void lines.push(String(line)));
	try {
		const response = await signedPost(tier, renderJobs.cleanup.path, { videoId: "vid_logs_1" });
		expect(response.status).toBe(200);
	} finally {
		spy.mockRestore();
		vi.unstubAllEnvs();
	}
	const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
	expect(parsed).toContainEqual(expect.objectContaining({ event: renderJobs.cleanup.path, videoId: "vid_logs_1" }));
});
