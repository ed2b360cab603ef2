/**
 * The remote MCP server (/mcp, Streamable HTTP) inside the Workers runtime, reached by the MCP
 * SDK's own client: the API key is the credential, the tools are the REST API with that key
 * (workspace scope, errors, rate limits), and an assistant can submit → wait → list clips → get a
 * download link → reprocess → delete. The render tier is faked; the real stack: test/e2e/mcp.e2e.test.ts.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/worker/services/crypto";
import { forgetKey } from "../../src/worker/services/key-cache";
import { balanceOf, createWorkspace } from "../helpers/accounts";
import { BASE, call } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";
import { itCountsInOneWindow } from "../helpers/rate-window";

const fake = useFakeRenderTier();
const url = (name: string) => `https://videos.example.com/${name}-${crypto.randomUUID()}.mp4`;

/** The MCP SDK's client, over Streamable HTTP into this Worker. */
async function connect(key: string | null) {
	const transport = new StreamableHTTPClientTransport(new URL(`${BASE}/mcp`), {
		requestInit: { headers: key ? { authorization: `Bearer ${key}` } : {} },
		fetch: (input, init) => exports.default.fetch(new Request(input, init)),
	});
	// Workers refuse Ajv's generated code; this validator checks the tools' output schemas without it.
	const client = new Client(
		{ name: "clipforge-test", version: "1" },
		{ jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
	);
	await client.connect(transport);
	return client;
}

const text = (result: unknown) => (result as { content: { type: string; text: string }[] }).content[0]!.text;
const structured = (result: unknown) => (result as { structuredContent: Record<string, any> }).structuredContent;

describe("MCP over Streamable HTTP on the Worker", () => {
	it("lists the tools, then submit → wait → clips → download link → reprocess → delete, all scoped to the key's workspace", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 50 });
		const mcp = await connect(apiKey);
		const { tools } = await mcp.listTools();
		expect(tools.map((t) => t.name)).toEqual([
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
		]);

		const workspaces = structured(await mcp.callTool({ name: "list_workspaces", arguments: {} }));
		expect(workspaces.workspaces).toEqual([expect.objectContaining({ id: workspaceId, minutesBalance: 50 })]);

		const hostedUrl = fake().addSource(url("talk"), { duration: 150 });
		const submitted = structured(
			await mcp.callTool({
				name: "submit_video",
				arguments: {
					hostedUrl,
					config: { aspectRatio: "1:1", clipDurationMin: 10, clipDurationMax: 30, enableCaptions: true },
				},
			}),
		);
		expect(submitted).toMatchObject({ status: "downloading", minutesCharged: 3, durationSeconds: 150 });
		const videoId = submitted.videoId as string;

		const progress: number[] = [];
		const waited = await mcp.callTool(
			{ name: "wait_for_completion", arguments: { videoId, timeoutSeconds: 120, pollSeconds: 2 } },
			undefined,
			{ onprogress: (p) => progress.push(p.progress) },
		);
		expect(structured(waited)).toMatchObject({
			done: true,
			status: "completed",
			progress: 100,
			errorMessage: null,
		});
		expect(progress.length).toBeGreaterThan(0);
		expect(progress).toEqual([...progress].sort((a, b) => a - b));

		const chapters = structured(await mcp.callTool({ name: "get_chapters", arguments: { videoId } }));
		expect(chapters.chapters.length).toBeGreaterThanOrEqual(3);
		expect(chapters.description).toMatch(/\n\n00:00 /);

		const clips = structured(await mcp.callTool({ name: "list_clips", arguments: { videoId } }));
		expect(clips.count).toBeGreaterThan(0);
		expect(clips.clips[0]).toMatchObject({
			aspectRatio: "1:1",
			downloadUrl: expect.stringContaining(`${BASE}/api/clips/`),
		});
		const clip = structured(
			await mcp.callTool({ name: "get_clip", arguments: { videoId, clipId: clips.clips[0].id } }),
		);
		const file = await call("GET", new URL(clip.clip.downloadUrl).pathname + new URL(clip.clip.downloadUrl).search);
		expect(file.status).toBe(200);
		expect(file.body).toMatchObject({ clip: clips.clips[0].id, aspectRatio: "1:1" });

		const reprocessed = structured(
			await mcp.callTool({ name: "reprocess_video", arguments: { videoId, config: { aspectRatio: "16:9" } } }),
		);
		expect(reprocessed).toMatchObject({ status: "analyzing", minutesCharged: 0, number: 1 });
		expect(
			structured(await mcp.callTool({ name: "wait_for_completion", arguments: { videoId, pollSeconds: 2 } })),
		).toMatchObject({ done: true, status: "completed" });
		const after = structured(await mcp.callTool({ name: "list_clips", arguments: { videoId, sort: "time" } }));
		expect(after.clips.every((c: { aspectRatio: string }) => c.aspectRatio === "16:9")).toBe(true);

		expect(structured(await mcp.callTool({ name: "delete_video", arguments: { videoId } }))).toEqual({
			videoId,
			deleted: true,
			minutesRefunded: 0,
		});
		expect(await balanceOf(workspaceId)).toBe(47);
		await mcp.close();
	});

	it("says why a video has no clips, when waiting and when listing them", async () => {
		const { apiKey } = await createWorkspace({ minutes: 10 });
		const mcp = await connect(apiKey);
		// Only greetings and sign-offs: nothing in the talk can be a clip (8.34 s a round, nothing cut off).
		const hostedUrl = fake().addSource(url("all-chatter"), {
			duration: 83.5,
			script: [
				"welcome back to the show",
				"thanks for listening and see you next week",
				"hi everyone how are you",
			],
		});
		const submitted = structured(await mcp.callTool({ name: "submit_video", arguments: { hostedUrl } }));
		const videoId = submitted.videoId as string;
		const waited = structured(
			await mcp.callTool({
				name: "wait_for_completion",
				arguments: { videoId, timeoutSeconds: 120, pollSeconds: 2 },
			}),
		);
		expect(waited).toMatchObject({ done: true, status: "completed" });
		expect(waited.rankingNote).toMatch(
			/^No clips: .* greetings, sign-offs or housekeeping.* The minutes were refunded\.$/,
		);
		const clips = structured(await mcp.callTool({ name: "list_clips", arguments: { videoId } }));
		expect(clips).toMatchObject({ count: 0, clips: [], rankingNote: waited.rankingNote });
	});

	it("submits a video with its own captions in any language, and says which language and where its words came from", async () => {
		const { apiKey } = await createWorkspace({ minutes: 10 });
		const mcp = await connect(apiKey);
		const lines = ["पिछली सर्दियों में मैं देर रात काम से घर लौटा।", "मुझे पता चला कि मेरी चाबियाँ दफ़्तर में रह गई थीं।"];
		const captionsText = lines
			.map(
				(line, k) =>
					`${k + 1}\n00:00:${String(k * 10).padStart(2, "0")},000 --> 00:00:${String(k * 10 + 9).padStart(2, "0")},000\n${line}\n`,
			)
			.join("\n");
		const submitted = structured(
			await mcp.callTool({
				name: "submit_video",
				arguments: { hostedUrl: fake().addSource(url("hindi"), { duration: 30 }), captionsText },
			}),
		);
		expect(submitted).toMatchObject({ language: "hi", transcriptSource: "captions" });
		const waited = structured(
			await mcp.callTool({
				name: "wait_for_completion",
				arguments: { videoId: submitted.videoId, timeoutSeconds: 120, pollSeconds: 2 },
			}),
		);
		expect(waited).toMatchObject({ done: true, status: "completed", language: "hi" });
	});

	it("answers bad input with a tool error carrying the API's code and message, never a crash", async () => {
		const { apiKey } = await createWorkspace({ minutes: 50 });
		const mcp = await connect(apiKey);
		const refused = await mcp.callTool({
			name: "submit_video",
			arguments: { hostedUrl: "ftp://example.com/a.mp4" },
		});
		expect(refused.isError).toBe(true);
		const direct = await call("POST", "/api/videos/hosted", {
			key: apiKey,
			body: { hostedUrl: "ftp://example.com/a.mp4" },
		});
		expect(text(refused)).toBe(`${direct.body.error.code}: ${direct.body.error.message}`);

		const bounds = await mcp.callTool({
			name: "submit_video",
			arguments: {
				hostedUrl: fake().addSource(url("talk"), { duration: 60 }),
				config: { clipDurationMin: 60, clipDurationMax: 20 },
			},
		});
		expect(text(bounds)).toBe(
			"invalid_request: The request is invalid. (config.clipDurationMax: must be greater than or equal to clipDurationMin)",
		);
		expect(bounds._meta?.["clipforge/error"]).toMatchObject({ code: "invalid_request", status: 400 });

		const unknown = await mcp.callTool({ name: "get_status", arguments: { videoId: "vid_nope" } });
		expect(text(unknown)).toBe("not_found: Video vid_nope was not found.");
		const busy = await mcp.callTool({ name: "reprocess_video", arguments: { videoId: "vid_nope" } });
		expect(text(busy)).toMatch(/^not_found: /);
		const schema = await mcp.callTool({ name: "list_clips", arguments: { videoId: 42 } });
		expect(schema.isError).toBe(true);
		expect(text(schema)).toMatch(/videoId/);
		// The server still answers after all of that.
		expect((await mcp.listTools()).tools).toHaveLength(11);
	});

	it("cannot see another workspace's video", async () => {
		const owner = await createWorkspace();
		const stranger = await createWorkspace();
		const hostedUrl = fake().addSource(url("talk"), { duration: 60 });
		const videoId = (
			await call("POST", "/api/videos/hosted", { key: owner.apiKey, body: { hostedUrl, config: {} } })
		).body.video.id;
		const mcp = await connect(stranger.apiKey);
		for (const name of ["get_status", "list_clips", "reprocess_video", "delete_video"]) {
			expect(text(await mcp.callTool({ name, arguments: { videoId } }))).toBe(
				`not_found: Video ${videoId} was not found.`,
			);
		}
	});

	it("refuses a missing, unknown or revoked key, and a session cookie, with 401", async () => {
		await expect(connect(null)).rejects.toMatchObject({ code: 401 });
		await expect(connect("cf_live_unknown")).rejects.toMatchObject({ code: 401 });
		const { apiKey, apiKeyId } = await createWorkspace();
		const mcp = await connect(apiKey);
		expect((await mcp.listTools()).tools).toHaveLength(11);
		await env.DB.prepare("UPDATE api_keys SET revoked_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?")
			.bind(apiKeyId)
			.run();
		// As DELETE /api/api-keys/:id does (a revocation elsewhere takes up to the key cache's 60 s).
		await forgetKey(await sha256Hex(apiKey));
		await expect(mcp.listTools()).rejects.toMatchObject({
			code: 401,
			message: expect.stringContaining("The API key is unknown or revoked."),
		});
		await expect(connect(apiKey)).rejects.toMatchObject({ code: 401 });
		const raw = await exports.default.fetch(`${BASE}/mcp`, {
			method: "POST",
			headers: {
				"content-type": "application/json",
				accept: "application/json, text/event-stream",
				cookie: "cf_session=anything",
			},
			body: "{}",
		});
		expect(raw.status).toBe(401);
		expect(((await raw.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
	});

	itCountsInOneWindow(
		"shares the key's write limit with the REST API: a tool's write over it is a rate_limited tool error",
		60,
		async () => {
			const { apiKey } = await createWorkspace();
			const mcp = await connect(apiKey);
			for (let i = 0; i < 60; i++)
				expect((await call("POST", "/api/projects", { key: apiKey, body: { name: `p${i}` } })).status).toBe(
					201,
				);
			const limited = await mcp.callTool({
				name: "submit_video",
				arguments: { hostedUrl: fake().addSource(url("talk"), { duration: 60 }) },
			});
			expect(limited.isError).toBe(true);
			expect(text(limited)).toBe(
				"rate_limited: Too many writes with this workspace's API keys; retry after 60 s.",
			);
			expect(structured(await mcp.callTool({ name: "list_workspaces", arguments: {} })).workspaces).toHaveLength(
				1,
			);
		},
	);

	itCountsInOneWindow(
		"counts each MCP request as a read of the key's budget: past 600 a minute, /mcp answers 429",
		60,
		async () => {
			const { apiKey } = await createWorkspace();
			for (let i = 0; i < 600; i += 50)
				await Promise.all(Array.from({ length: 50 }, () => call("GET", "/api/projects", { key: apiKey })));
			const over = await exports.default.fetch(`${BASE}/mcp`, {
				method: "POST",
				headers: {
					authorization: `Bearer ${apiKey}`,
					"content-type": "application/json",
					accept: "application/json, text/event-stream",
				},
				body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
			});
			expect(over.status).toBe(429);
			expect(over.headers.get("retry-after")).toBe("60");
		},
	);

	it("answers GET and DELETE with 405 (a stateless server keeps no stream or session)", async () => {
		const { apiKey } = await createWorkspace();
		for (const method of ["GET", "DELETE"]) {
			const response = await exports.default.fetch(`${BASE}/mcp`, {
				method,
				headers: { authorization: `Bearer ${apiKey}`, accept: "text/event-stream" },
			});
			expect(response.status).toBe(405);
			expect(response.headers.get("allow")).toBe("POST");
		}
	});
});
