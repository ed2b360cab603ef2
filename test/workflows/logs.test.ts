/**
 * What Workers Logs gets when a video fails (lib/log.ts): one JSON object per line, each failed
 * attempt of a step with the step's name and attempt, and the video's failure, every line with
 * the video's and its workspace's ids and the workflow instance's; an API request's lines with its
 * request id (the X-Request-Id its caller saw). docs/deploy.md's "When a video fails" queries them.
 */
import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { requestId } from "hono/request-id";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderJobs } from "@clipforge/contract";
import type { AppEnv } from "../../src/worker/env";
import { requestLog } from "../../src/worker/middleware/request-log";
import { createWorkspace } from "../helpers/accounts";
import { submitAndProcess } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";

const fake = useFakeRenderTier({ introspect: false });
const url = () => `https://videos.example.com/logs-${crypto.randomUUID()}.mp4`;
const config = { clipDurationMin: 10, clipDurationMax: 20 };

type Line = Record<string, unknown>;

/** Every object logged at warn or error level while `work` runs. */
async function linesDuring(work: () => Promise<unknown>): Promise<Line[]> {
	const lines: Line[] = [];
	const keep = (value: unknown) => {
		if (value && typeof value === "object") lines.push(value as Line);
	};
	const warn = vi.spyOn(console, "warn").mockImplementation(keep);
	const error = vi.spyOn(console, "error").mockImplementation(keep);
	try {
		await work();
	} finally {
		warn.mockRestore();
		error.mockRestore();
	}
	return lines;
}

afterEach(() => vi.restoreAllMocks());

describe("a video's failure in the logs", () => {
	it("a failed attempt: step_failed with the step, its attempt, the video, its workspace and instance", async () => {
		const { apiKey, workspaceId } = await createWorkspace();
		fake().failNext(renderJobs.renderClip.path, {
			code: "process_failed",
			message: "ffmpeg was killed",
			retryable: true,
		});
		let videoId = "";
		const lines = await linesDuring(async () => {
			videoId = await submitAndProcess(apiKey, fake().addSource(url(), { duration: 60 }), config);
		});
		const failed = lines.filter((l) => l.event === "step_failed" && l.videoId === videoId);
		expect(failed).toEqual([
			expect.objectContaining({
				level: "warn",
				videoId,
				workspaceId,
				instanceId: videoId,
				step: expect.stringMatching(/^render clip 1 of \d+$/),
				attempt: 1,
				error: expect.stringContaining("ffmpeg was killed"),
			}),
		]);
	});

	it("a video that fails for good: video_failed at error level, with the message the API shows", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 10 });
		const hostedUrl = fake().addSource(url(), { duration: 60 });
		fake().failAlways(renderJobs.download.path, {
			code: "unsupported_source",
			message: "The source answered HTTP 404.",
			retryable: false,
		});
		let videoId = "";
		const lines = await linesDuring(async () => {
			videoId = await submitAndProcess(apiKey, hostedUrl, config, "errored");
		});
		const mine = lines.filter((l) => l.videoId === videoId);
		expect(mine.find((l) => l.event === "step_failed")).toMatchObject({ step: "download source", workspaceId });
		expect(mine.find((l) => l.event === "video_failed")).toMatchObject({
			level: "error",
			workspaceId,
			instanceId: videoId,
			error: expect.stringContaining("The source answered HTTP 404."),
		});
		// Each line is one JSON object as Workers Logs stores it.
		for (const line of mine) expect(JSON.parse(JSON.stringify(line))).toEqual(line);
	});
});

describe("an API request's lines", () => {
	it("carry its request id (the X-Request-Id its caller got) and the caller's one workspace", async () => {
		const app = new Hono<AppEnv>();
		app.use("*", requestId({ headerName: "X-Request-Id" }));
		app.get("/", (c) => {
			c.set("principal", { kind: "api_key", apiKeyId: "key_1", workspaceIds: ["ws_1"] });
			requestLog(c, { videoId: "vid_1" }).warn("terminate_workflow_failed", { error: new Error("gone") });
			return c.text("ok");
		});
		let header: string | null = null;
		const lines = await linesDuring(async () => {
			header = (await app.request("/", {}, env)).headers.get("X-Request-Id");
		});
		expect(header).toBeTruthy();
		expect(lines).toEqual([
			{
				level: "warn",
				event: "terminate_workflow_failed",
				requestId: header,
				workspaceId: "ws_1",
				videoId: "vid_1",
				error: "gone",
			},
		]);
	});
});
