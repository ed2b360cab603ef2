/**
 * The MCP server's tools against a scripted API (in-memory transport, the MCP SDK's own client):
 * each tool is the REST call it says, answers structured content that fits its output schema, and
 * turns the API's errors into tool errors with the API's code and message. Over Streamable HTTP and
 * stdio against the real stack: test/e2e/mcp.e2e.test.ts; on the Worker: test/integration/mcp.test.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import { createClient } from "../src/index.ts";
import { createMcpServer } from "../src/mcp/server.ts";

type Answer = { status: number; body: unknown };

/** The API as a list of answers, recording each request. */
function scriptedApi(answers: Answer[]) {
	const seen: { method: string; url: string; headers: Record<string, string>; body: unknown }[] = [];
	const fetchStub = (async (url: string, init: RequestInit) => {
		seen.push({
			method: init.method ?? "GET",
			url,
			headers: init.headers as Record<string, string>,
			body: init.body ? JSON.parse(String(init.body)) : undefined,
		});
		const answer = answers.shift() ?? {
			status: 500,
			body: { error: { code: "internal_error", message: "script ran out", requestId: "r" } },
		};
		return new Response(JSON.stringify(answer.body), {
			status: answer.status,
			headers: { "content-type": "application/json" },
		});
	}) as unknown as typeof fetch;
	return {
		client: createClient({ baseUrl: "http://api.test", apiKey: "cf_live_test", fetch: fetchStub, maxAttempts: 1 }),
		seen,
	};
}

async function connect(answers: Answer[]) {
	const api = scriptedApi(answers);
	const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
	await createMcpServer(api.client).connect(serverSide);
	const mcp = new Client({ name: "test", version: "1" });
	await mcp.connect(clientSide);
	return { mcp, seen: api.seen };
}

const statusBody = (status: string, progress: number, errorMessage: string | null = null) => ({
	status: 200,
	body: {
		video: { id: "vid_1", title: "Talk", status, errorMessage, createdAt: "", updatedAt: "u" },
		job: { progress, stage: status, stageProgress: 40, startedAt: null, updatedAt: "u" },
	},
});

const TOOLS = [
	"list_workspaces",
	"list_videos",
	"submit_video",
	"get_status",
	"wait_for_completion",
	"get_chapters",
	"list_clips",
	"get_clip",
	"update_clip",
	"reprocess_video",
	"delete_video",
];

describe("clipforge MCP tools", () => {
	it("lists every tool with a description, an input schema and an output schema", async () => {
		const { mcp } = await connect([]);
		const { tools } = await mcp.listTools();
		expect(tools.map((t) => t.name)).toEqual(TOOLS);
		for (const tool of tools) {
			expect(tool.description!.length).toBeGreaterThan(40);
			expect(tool.inputSchema.type).toBe("object");
			expect(tool.outputSchema?.type).toBe("object");
		}
		expect(tools.find((t) => t.name === "delete_video")!.annotations).toMatchObject({ destructiveHint: true });
		expect(tools.find((t) => t.name === "get_status")!.annotations).toMatchObject({ readOnlyHint: true });
	});

	it("offers every config option of the API, with the API's enums", async () => {
		const { mcp } = await connect([]);
		const submit = (await mcp.listTools()).tools.find((t) => t.name === "submit_video")!;
		const config = (
			submit.inputSchema.properties as Record<
				string,
				{ properties: Record<string, { enum?: string[]; anyOf?: unknown }> }
			>
		).config!;
		const api = JSON.parse(readFileSync(join(import.meta.dirname, "..", "openapi.json"), "utf8")).components.schemas
			.VideoConfig;
		expect(Object.keys(config.properties).sort()).toEqual(Object.keys(api.properties).sort());
		// A nullable enum (language) is an anyOf of the enum and null in the tool's schema.
		const enumOf = (field: { enum?: unknown[]; anyOf?: unknown }) =>
			field.enum ?? (field.anyOf as { enum?: unknown[] }[] | undefined)?.find((f) => f.enum)?.enum;
		for (const [name, field] of Object.entries(api.properties as Record<string, { enum?: unknown[] }>)) {
			if (field.enum)
				expect(enumOf(config.properties[name]!), name).toEqual(field.enum.filter((v) => v !== null));
		}
	});

	it("submits through the API with the config and key, and answers structured content", async () => {
		const { mcp, seen } = await connect([
			{
				status: 201,
				body: {
					message: "Video submitted; processing has started.",
					video: { id: "vid_1", status: "downloading" },
					videoInfo: { title: "Talk", duration: 61 },
				},
			},
			{ status: 200, body: { id: "vid_1", status: "downloading", minutesCharged: 2 } },
		]);
		const result = await mcp.callTool({
			name: "submit_video",
			arguments: {
				hostedUrl: "https://v.example/a.mp4",
				config: { aspectRatio: "1:1", enableCaptions: true },
				idempotencyKey: "k-1",
			},
		});
		expect(result.isError).toBeFalsy();
		expect(result.structuredContent).toEqual({
			videoId: "vid_1",
			status: "downloading",
			title: "Talk",
			language: null,
			transcriptSource: "transcription",
			durationSeconds: 61,
			minutesCharged: 2,
			message: "Video submitted; processing has started.",
		});
		expect(JSON.parse((result.content as { text: string }[])[0]!.text)).toEqual(result.structuredContent);
		expect(seen[0]).toMatchObject({
			method: "POST",
			url: "http://api.test/api/videos/hosted",
			body: { hostedUrl: "https://v.example/a.mp4", config: { aspectRatio: "1:1", enableCaptions: true } },
		});
		expect(seen[0]!.headers).toMatchObject({ authorization: "Bearer cf_live_test", "idempotency-key": "k-1" });
	});

	it("answers the API's refusal as a tool error with its code and message", async () => {
		const details = [
			{ path: "config.clipDurationMax", message: "must be greater than or equal to clipDurationMin" },
		];
		const { mcp } = await connect([
			{
				status: 400,
				body: {
					error: { code: "invalid_request", message: "The request is invalid.", details, requestId: "req_9" },
				},
			},
		]);
		const result = await mcp.callTool({
			name: "submit_video",
			arguments: { hostedUrl: "https://v.example/a.mp4", config: { clipDurationMin: 60, clipDurationMax: 20 } },
		});
		expect(result.isError).toBe(true);
		expect((result.content as { text: string }[])[0]!.text).toBe(
			"invalid_request: The request is invalid. (config.clipDurationMax: must be greater than or equal to clipDurationMin)",
		);
		expect(result._meta?.["clipforge/error"]).toMatchObject({
			code: "invalid_request",
			status: 400,
			details,
			requestId: "req_9",
		});
	});

	it("answers input that does not fit the schema with a tool error naming the field", async () => {
		const { mcp, seen } = await connect([]);
		const result = await mcp.callTool({
			name: "submit_video",
			arguments: { hostedUrl: "https://v.example/a.mp4", config: { aspectRatio: "4:3" } },
		});
		expect(result.isError).toBe(true);
		expect((result.content as { text: string }[])[0]!.text).toMatch(/aspectRatio/);
		expect(seen).toHaveLength(0);
	});

	it("waits with progress notifications, and says when it stopped waiting before the end", async () => {
		const { mcp } = await connect([
			statusBody("transcribing", 30),
			statusBody("analyzing", 58),
			statusBody("analyzing", 58),
			statusBody("generating_clips", 80),
		]);
		const progress: number[] = [];
		const result = await mcp.callTool(
			{ name: "wait_for_completion", arguments: { videoId: "vid_1", timeoutSeconds: 5, pollSeconds: 2 } },
			undefined,
			{
				onprogress: (p) => progress.push(p.progress),
			},
		);
		expect(result.structuredContent).toMatchObject({ done: false, status: "analyzing", progress: 58 });
		expect(progress).toEqual([30, 58]);
	}, 20_000);

	it("ends the wait on a failed video with its errorMessage (a result, not a tool error)", async () => {
		const { mcp } = await connect([statusBody("failed", 40, "Downloading the source failed: HTTP 404.")]);
		const result = await mcp.callTool({ name: "wait_for_completion", arguments: { videoId: "vid_1" } });
		expect(result.isError).toBeFalsy();
		expect(result.structuredContent).toMatchObject({
			done: true,
			status: "failed",
			errorMessage: "Downloading the source failed: HTTP 404.",
		});
	});

	it("gets one clip with its fresh links, and says so when it is not there", async () => {
		const clip = {
			id: "clp_1_1",
			title: "A story",
			hookTitle: null,
			score: 80,
			startTime: 1,
			endTime: 20,
			duration: 19,
			viralityReason: "r",
			description: "d",
			transcript: "t",
			aspectRatio: "9:16",
			downloadUrl: "http://api.test/api/clips/clp_1_1/download?token=x",
			thumbnailUrl: "http://api.test/t",
			status: "completed",
			hooks: { question: null, statement: null },
			emotions: [],
			scoreBreakdown: null,
		};
		const notFound = {
			status: 404,
			body: { error: { code: "not_found", message: "Clip clp_nope was not found.", requestId: "r" } },
		};
		const { mcp, seen } = await connect([
			{ status: 200, body: { ...clip, videoId: "vid_1", words: [] } },
			notFound,
			{ status: 200, body: { ...clip, videoId: "vid_2", words: [] } },
		]);
		const found = await mcp.callTool({ name: "get_clip", arguments: { videoId: "vid_1", clipId: "clp_1_1" } });
		expect(found.structuredContent).toMatchObject({
			videoId: "vid_1",
			clip: { id: "clp_1_1", downloadUrl: clip.downloadUrl },
			linksExpireInSeconds: 3600,
		});
		expect(seen[0]!.url).toBe("http://api.test/api/clips/clp_1_1");
		for (const clipId of ["clp_nope", "clp_1_1"]) {
			const missing = await mcp.callTool({ name: "get_clip", arguments: { videoId: "vid_1", clipId } });
			expect(missing.isError).toBe(true);
			expect((missing.content as { text: string }[])[0]!.text).toMatch(
				new RegExp(`^not_found: Clip ${clipId} is not among`),
			);
		}
	});

	it("edits a clip with only the changes given, and says when it renders again", async () => {
		const clip = {
			id: "clp_1_1",
			videoId: "vid_1",
			title: "A story",
			hookTitle: null,
			score: 80,
			startTime: 2,
			endTime: 20,
			duration: 18,
			viralityReason: "r",
			description: "d",
			transcript: "t",
			aspectRatio: "9:16",
			downloadUrl: "http://api.test/d",
			thumbnailUrl: "http://api.test/t",
			status: "generating",
			favorited: true,
			edits: 1,
			editError: null,
			words: [],
		};
		const { mcp, seen } = await connect([{ status: 202, body: clip }]);
		const result = await mcp.callTool({
			name: "update_clip",
			arguments: { clipId: "clp_1_1", startTime: 2, favorited: true },
		});
		expect(result.isError).toBeFalsy();
		expect(result.structuredContent).toMatchObject({
			rendering: true,
			status: "generating",
			favorited: true,
			edits: 1,
			clip: { id: "clp_1_1", startTime: 2 },
		});
		expect(seen[0]).toMatchObject({
			method: "PATCH",
			url: "http://api.test/api/clips/clp_1_1",
			body: { startTime: 2, favorited: true },
		});
	});

	it("reprocesses with only the changed options and an idempotency key", async () => {
		const { mcp, seen } = await connect([
			{
				status: 202,
				body: {
					message: "Reprocessing started (free).",
					video: { id: "vid_1", status: "analyzing" },
					reprocess: { id: "vid_1-r1", number: 1, minutesCharged: 0 },
				},
			},
		]);
		const result = await mcp.callTool({
			name: "reprocess_video",
			arguments: { videoId: "vid_1", config: { aspectRatio: "16:9" } },
		});
		expect(result.structuredContent).toEqual({
			videoId: "vid_1",
			reprocessId: "vid_1-r1",
			number: 1,
			status: "analyzing",
			minutesCharged: 0,
			message: "Reprocessing started (free).",
		});
		expect(seen[0]).toMatchObject({
			method: "POST",
			url: "http://api.test/api/videos/vid_1/reprocess",
			body: { config: { aspectRatio: "16:9" } },
		});
		expect(seen[0]!.headers["idempotency-key"]).toMatch(/^sdk-reprocess-/);
	});

	it("deletes through the API", async () => {
		const { mcp, seen } = await connect([
			{ status: 200, body: { id: "vid_1", deleted: true, minutesRefunded: 0 } },
		]);
		const result = await mcp.callTool({ name: "delete_video", arguments: { videoId: "vid_1" } });
		expect(result.structuredContent).toEqual({ videoId: "vid_1", deleted: true, minutesRefunded: 0 });
		expect(seen[0]).toMatchObject({ method: "DELETE", url: "http://api.test/api/videos/vid_1" });
	});

	it("get_chapters is GET /api/videos/{id}/chapters: the chapters and the show notes as structured content", async () => {
		const chapters = {
			chapters: [
				{ start: 0, end: 200, title: "The garden", summary: "Soil first." },
				{ start: 200, end: 400, title: "The budget", summary: "Savings next." },
				{ start: 400, end: 600, title: "The night sky", summary: "Then the stars." },
			],
			summary: "A talk in three parts.",
			description: "A talk in three parts.\n\n00:00 The garden\n03:20 The budget\n06:40 The night sky",
			madeBy: "offline",
			note: null,
		};
		const { mcp, seen } = await connect([{ status: 200, body: chapters }]);
		const result = await mcp.callTool({ name: "get_chapters", arguments: { videoId: "vid_1" } });
		expect(result.isError).toBeFalsy();
		expect(result.structuredContent).toEqual(chapters);
		expect(seen.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual(["GET /api/videos/vid_1/chapters"]);
	});
});
