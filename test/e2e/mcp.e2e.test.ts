/**
 * An assistant's view of clipforge on the real local stack: the MCP SDK's own client connects over
 * Streamable HTTP (the Worker's /mcp, with an API key) and over stdio (`npx clipforge mcp`, key and
 * URL from the environment), lists the tools, and runs submit → wait → clips → download link end to
 * end (the link is fetched and ffprobed), then reprocesses; bad input is a tool error with the
 * API's message; a revoked key is refused.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, describe, expect, inject, it } from "vitest";
import { api, stackUrl, useServedMedia } from "./client.ts";
import { cachedTalkVideo } from "../../scripts/sample-video.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const media = useServedMedia("clipforge-e2e-mcp-", (dir) =>
	cachedTalkVideo({ out: join(dir, "talk.mp4"), seconds: 30 }),
);
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
const open: Client[] = [];
afterAll(async () => {
	for (const client of open) await client.close().catch(() => undefined);
});

async function overHttp(key = inject("clipforgeApiKey")): Promise<Client> {
	const client = new Client({ name: "e2e-remote", version: "1" });
	await client.connect(
		new StreamableHTTPClientTransport(new URL(`${stackUrl()}/mcp`), {
			requestInit: { headers: { authorization: `Bearer ${key}` } },
		}),
	);
	open.push(client);
	return client;
}

/** As a desktop assistant starts it: a command, with the key and URL in its environment. */
async function overStdio(key = inject("clipforgeApiKey")): Promise<{ client: Client; stderr: () => string }> {
	const transport = new StdioClientTransport({
		command: "npx",
		args: ["clipforge", "mcp"],
		cwd: ROOT,
		env: { ...(process.env as Record<string, string>), CLIPFORGE_URL: stackUrl(), CLIPFORGE_API_KEY: key },
		stderr: "pipe",
	});
	let stderr = "";
	transport.stderr?.on("data", (chunk) => (stderr += String(chunk)));
	const client = new Client({ name: "e2e-desktop", version: "1" });
	await client.connect(transport);
	open.push(client);
	return { client, stderr: () => stderr };
}

const text = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;
const structured = (result: unknown) => (result as { structuredContent: Record<string, any> }).structuredContent;

/** submit → wait (with progress notifications) → list clips → a fresh download link that really downloads an MP4. */
async function assistantMakesClips(mcp: Client, config: Record<string, unknown>) {
	expect((await mcp.listTools()).tools.map((t) => t.name)).toEqual(TOOLS);
	const before = structured(await mcp.callTool({ name: "list_workspaces", arguments: {} })).workspaces[0]
		.minutesBalance as number;
	const submitted = structured(
		await mcp.callTool({ name: "submit_video", arguments: { hostedUrl: `${media.url()}/talk.mp4`, config } }),
	);
	expect(submitted).toMatchObject({ status: "downloading", minutesCharged: 1 });
	const videoId = submitted.videoId as string;

	const progress: number[] = [];
	let waited: Record<string, any> = {};
	for (let i = 0; i < 10 && !waited.done; i++) {
		waited = structured(
			await mcp.callTool(
				{ name: "wait_for_completion", arguments: { videoId, timeoutSeconds: 50, pollSeconds: 2 } },
				undefined,
				{ onprogress: (p) => progress.push(p.progress), timeout: 120_000 },
			),
		);
	}
	expect(waited).toMatchObject({ done: true, status: "completed", progress: 100 });
	expect(progress.length).toBeGreaterThan(2);

	const clips = structured(await mcp.callTool({ name: "list_clips", arguments: { videoId } }));
	expect(clips.count).toBeGreaterThan(0);
	const clip = structured(
		await mcp.callTool({ name: "get_clip", arguments: { videoId, clipId: clips.clips[0].id } }),
	);
	expect(clip.linksExpireInSeconds).toBe(3600);
	const file = await fetch(clip.clip.downloadUrl);
	expect(file.status).toBe(200);
	const path = join(media.dir(), `${videoId}.mp4`);
	writeFileSync(path, new Uint8Array(await file.arrayBuffer()));
	const probe = JSON.parse(
		execFileSync("ffprobe", [
			"-v",
			"error",
			"-show_entries",
			"stream=codec_name,width,height",
			"-of",
			"json",
			path,
		]).toString(),
	);
	expect(
		structured(await mcp.callTool({ name: "list_workspaces", arguments: {} })).workspaces[0].minutesBalance,
	).toBe(before - 1);
	return { videoId, clips: clips.clips as { id: string; aspectRatio: string }[], probe: probe.streams[0] };
}

describe("MCP over Streamable HTTP (the Worker's /mcp)", () => {
	it("lists the tools and runs submit → wait → clips → download link, then reprocess → wait → new clips", async () => {
		const mcp = await overHttp();
		const {
			videoId,
			probe,
			clips: first,
		} = await assistantMakesClips(mcp, {
			aspectRatio: "1:1",
			clipDurationMin: 8,
			clipDurationMax: 20,
			enableCaptions: true,
		});
		expect(probe).toMatchObject({ codec_name: "h264", width: 1080, height: 1080 });

		const reprocessed = structured(
			await mcp.callTool({
				name: "reprocess_video",
				arguments: { videoId, config: { aspectRatio: "16:9", enableCaptions: false } },
			}),
		);
		expect(reprocessed).toMatchObject({ status: "analyzing", minutesCharged: 0, number: 1 });
		let waited: Record<string, any> = {};
		for (let i = 0; i < 10 && !waited.done; i++)
			waited = structured(
				await mcp.callTool({ name: "wait_for_completion", arguments: { videoId, pollSeconds: 2 } }),
			);
		expect(waited.status).toBe("completed");
		const after = structured(await mcp.callTool({ name: "list_clips", arguments: { videoId } }));
		expect(after.clips.length).toBeGreaterThan(0);
		expect(
			after.clips.every(
				(c: { aspectRatio: string; id: string }) =>
					c.aspectRatio === "16:9" && !first.some((old) => old.id === c.id),
			),
		).toBe(true);
	});

	it("answers bad input with tool errors carrying the API's code and message", async () => {
		const mcp = await overHttp();
		const refused = await mcp.callTool({
			name: "submit_video",
			arguments: { hostedUrl: "ftp://example.com/a.mp4" },
		});
		expect(refused.isError).toBe(true);
		const direct = await api("POST", "/api/videos/hosted", { hostedUrl: "ftp://example.com/a.mp4" });
		expect(text(refused)).toBe(`${direct.body.error.code}: ${direct.body.error.message}`);
		const bounds = await mcp.callTool({
			name: "submit_video",
			arguments: { hostedUrl: `${media.url()}/talk.mp4`, config: { clipDurationMin: 2 } },
		});
		expect(text(bounds)).toMatch(/^invalid_request: The request is invalid\. \(config\.clipDurationMin: /);
		expect(text(await mcp.callTool({ name: "get_status", arguments: { videoId: "vid_doesnotexist" } }))).toBe(
			"not_found: Video vid_doesnotexist was not found.",
		);
		const schema = await mcp.callTool({
			name: "submit_video",
			arguments: { hostedUrl: `${media.url()}/talk.mp4`, config: { aspectRatio: "4:3" } },
		});
		expect(schema.isError).toBe(true);
		expect(text(schema)).toContain("aspectRatio");
	});

	it("refuses a revoked key, at once", async () => {
		const login = await fetch(`${stackUrl()}/api/auth/login`, {
			method: "POST",
			headers: { "content-type": "application/json" },
			body: JSON.stringify({ email: inject("clipforgeEmail"), password: inject("clipforgePassword") }),
		});
		const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
		const workspaceId = (await api("GET", "/api/workspaces")).body[0].id;
		const created = (await (
			await fetch(`${stackUrl()}/api/api-keys`, {
				method: "POST",
				headers: { cookie, "content-type": "application/json" },
				body: JSON.stringify({ workspaceId, name: "mcp e2e" }),
			})
		).json()) as { id: string; key: string };
		const mcp = await overHttp(created.key);
		expect((await mcp.listTools()).tools).toHaveLength(TOOLS.length);
		expect(
			(await fetch(`${stackUrl()}/api/api-keys/${created.id}`, { method: "DELETE", headers: { cookie } })).status,
		).toBe(200);
		await expect(mcp.callTool({ name: "list_workspaces", arguments: {} })).rejects.toMatchObject({ code: 401 });
		await expect(overHttp(created.key)).rejects.toMatchObject({ code: 401 });
		// Over stdio the server starts, and every tool answers the API's 401 as a tool error.
		const { client } = await overStdio(created.key);
		expect(text(await client.callTool({ name: "list_workspaces", arguments: {} }))).toBe(
			"unauthorized: The API key is unknown or revoked.",
		);
	});
});

describe("MCP over stdio (`npx clipforge mcp`)", () => {
	it("lists the tools and runs submit → wait → clips → download link", async () => {
		const { client, stderr } = await overStdio();
		const { probe } = await assistantMakesClips(client, { clipDurationMin: 8, clipDurationMax: 20 });
		expect(probe).toMatchObject({ codec_name: "h264", width: 1080, height: 1920 });
		const bad = await client.callTool({ name: "list_clips", arguments: { videoId: "vid_doesnotexist" } });
		expect(text(bad)).toBe("not_found: Video vid_doesnotexist was not found.");
		// The server wrote nothing but the protocol (npm itself may warn about this machine's config).
		expect(
			stderr()
				.split("\n")
				.filter((line) => line && !line.startsWith("npm warn")),
		).toEqual([]);
	});
});
