/**
 * The clipforge MCP server: one set of tools over the SDK's client, so every tool is a call of the
 * REST API with the caller's own key (the same checks, workspace, rate limits and error codes; no
 * tool can do what the key cannot). The Worker serves it at /mcp (Streamable HTTP, the client
 * dispatching into the API in-process); `clipforge mcp` serves it over stdio against CLIPFORGE_URL.
 *
 * @example
 * const server = createMcpServer(createApiClient({ baseUrl, apiKey }));
 * await server.connect(new StdioServerTransport());
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ServerOptions } from "@modelcontextprotocol/sdk/server/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ApiClient, VideoStatus } from "../api-client.ts";
import { ClipforgeError } from "../errors.ts";
import { inputs, outputs } from "./schemas.ts";

export const MCP_SERVER_INFO = { name: "clipforge", version: "0.1.0" } as const;

const INSTRUCTIONS = `clipforge turns a long video (a URL) into short, scored, captioned clips.
Typical flow: list_workspaces (minutes left) → submit_video (charges the video's minutes) → wait_for_completion (call again while done is false) → list_clips (best first) → get_clip for a fresh download link; update_clip to favorite, retitle or trim a clip.
reprocess_video regenerates a finished video's clips with other settings without downloading or transcribing again (the first reprocess of a video is free, later ones cost half its minutes).
Errors carry the API's code (invalid_request, insufficient_minutes, not_found, video_processing, rate_limited …) and message.`;

/** Signed clip links are valid this long from each listing (the API's rule). */
const LINK_SECONDS = 3600;

export interface McpServerOptions {
	/** Passed to the MCP SDK's Server (e.g. a Workers-safe jsonSchemaValidator). */
	server?: ServerOptions;
}

export function createMcpServer(client: ApiClient, options: McpServerOptions = {}): McpServer {
	const server = new McpServer(MCP_SERVER_INFO, { instructions: INSTRUCTIONS, ...options.server });
	const read = { readOnlyHint: true, openWorldHint: false } as const;

	server.registerTool(
		"list_workspaces",
		{ title: "List workspaces", description: "The workspace this API key belongs to, with its minutes left and plan.", inputSchema: inputs.listWorkspaces, outputSchema: outputs.listWorkspaces, annotations: read },
		() => run(async () => ({ workspaces: (await client.workspaces()).map(({ id, name, minutesBalance, plan }) => ({ id, name, minutesBalance, plan })) })),
	);

	server.registerTool(
		"list_videos",
		{ title: "List videos", description: "The workspace's videos, newest first, with their status.", inputSchema: inputs.listVideos, outputSchema: outputs.listVideos, annotations: read },
		(args) =>
			run(async () => {
				const page = await client.listVideos({ status: args.status, limit: args.limit ?? 20, cursor: args.cursor });
				const videos = page.videos.map((v) => ({ id: v.id, title: v.title, status: v.status, progress: v.progress, errorMessage: v.errorMessage, minutesCharged: v.minutesCharged, createdAt: v.createdAt }));
				return { videos, nextCursor: page.nextCursor };
			}),
	);

	server.registerTool(
		"submit_video",
		{
			title: "Submit a video",
			description:
				"Submits a video URL for clipping and starts processing at once. Charges ceil(minutes of the time frame) from the workspace (refunded if processing fails). Returns the videoId: follow it with wait_for_completion, then list_clips. Every config option is optional.",
			inputSchema: inputs.submitVideo,
			outputSchema: outputs.submitVideo,
			annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
		},
		(args) =>
			run(async () => {
				const submitted = await client.submit(args.hostedUrl, args.config ?? {}, { projectId: args.projectId, idempotencyKey: args.idempotencyKey });
				const detail = await client.video(submitted.video.id);
				return {
					videoId: submitted.video.id,
					status: detail.status,
					title: submitted.videoInfo.title,
					durationSeconds: submitted.videoInfo.duration,
					minutesCharged: detail.minutesCharged,
					message: submitted.message,
				};
			}),
	);

	server.registerTool(
		"get_status",
		{ title: "Get a video's status", description: "The video's stage, progress (0-100) and, if it failed, why.", inputSchema: inputs.getStatus, outputSchema: outputs.getStatus, annotations: read },
		(args) => run(async () => statusOf(await client.status(args.videoId))),
	);

	server.registerTool(
		"wait_for_completion",
		{
			title: "Wait for a video to finish",
			description:
				"Waits until the video is completed or failed, for at most timeoutSeconds (default 50), sending progress notifications as it moves. done=false means it is still processing: call again. A 30-minute video takes a few minutes.",
			inputSchema: inputs.waitForCompletion,
			outputSchema: outputs.waitForCompletion,
			annotations: read,
		},
		(args, extra) =>
			run(async () => {
				const timeoutMs = clamp(args.timeoutSeconds ?? 50, 5, 600) * 1000;
				const intervalMs = clamp(args.pollSeconds ?? 10, 2, 30) * 1000;
				const token = extra._meta?.progressToken;
				let reported = -1;
				let last: VideoStatus | null = null;
				const onProgress = (status: VideoStatus) => {
					last = status;
					const progress = Math.round(status.job.progress * 10) / 10;
					if (token === undefined || progress <= reported) return;
					reported = progress;
					const message = `${status.video.status.replace("_", " ")}: ${Math.round(status.job.stageProgress)}% of this stage`;
					extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress, total: 100, message } }).catch(() => undefined);
				};
				try {
					const done = await client.waitForCompletion(args.videoId, { intervalMs, timeoutMs, signal: extra.signal, onProgress });
					return { done: true, ...statusOf(done) };
				} catch (error) {
					const ended = error instanceof ClipforgeError && (error.code === "video_failed" || error.code === "timeout");
					if (!ended || !last) throw error;
					return { done: error.code === "video_failed", ...statusOf(last) };
				}
			}),
	);

	server.registerTool(
		"list_clips",
		{
			title: "List a video's clips",
			description: "The clips of a completed video, best score first (or in time order), each with a fresh signed download link valid for one hour. Empty while the video is still processing.",
			inputSchema: inputs.listClips,
			outputSchema: outputs.listClips,
			annotations: read,
		},
		(args) =>
			run(async () => {
				const page = await client.listClips(args.videoId, { minScore: args.minScore, sort: args.sort, limit: args.limit, cursor: args.cursor });
				return { videoId: page.videoId, status: page.status, clips: page.clips.map(clipOf), count: page.count, nextCursor: page.nextCursor };
			}),
	);

	server.registerTool(
		"get_clip",
		{
			title: "Get a clip with a fresh download link",
			description: "One clip of a video with newly signed download and thumbnail links (valid for one hour; anyone with the link can download it), and its caption words with their indexes (for update_clip).",
			inputSchema: inputs.getClip,
			outputSchema: outputs.getClip,
			annotations: read,
		},
		(args) =>
			run(async () => {
				const found = await client.clip(args.clipId).catch((error: unknown) => {
					throw error instanceof ClipforgeError && error.code === "not_found" ? notAmong(args.clipId, args.videoId) : error;
				});
				if (found.videoId !== args.videoId) throw notAmong(args.clipId, args.videoId);
				return { videoId: args.videoId, clip: clipOf(found), words: found.words.map(({ index, word }) => ({ index, word: word.trim() })), linksExpireInSeconds: LINK_SECONDS };
			}),
	);

	server.registerTool(
		"update_clip",
		{
			title: "Edit a clip",
			description:
				"Changes one clip: favorited and title are saved at once; a new startTime/endTime (seconds in the source, snapped to word edges, 5-600 s long), captionStyle, corrected caption words (index as in get_clip's words; timings stay) or a drawn hookTitle re-render that clip alone (status generating, then completed; call get_clip to see it). Free, up to 20 re-renders per clip. Refused while the video or clip is processing (video_processing, clip_processing) and once the video's files are gone (source_deleted).",
			inputSchema: inputs.updateClip,
			outputSchema: outputs.updateClip,
			annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
		},
		(args) =>
			run(async () => {
				const { clipId, ...changes } = args;
				const updated = await client.updateClip(clipId, changes);
				return { clip: clipOf(updated), status: updated.status, rendering: updated.status === "generating", favorited: updated.favorited, edits: updated.edits, editError: updated.editError };
			}),
	);

	server.registerTool(
		"reprocess_video",
		{
			title: "Regenerate a video's clips with new settings",
			description:
				"Makes a finished video's clips again with changed options (aspect ratio, durations, captions, hook titles, prompt, genre, model, smart crop, split-screen, watermark …) from its stored source and transcript: no new download or transcription. Only the options given change. The first reprocess of a video is free; later ones cost half its time frame's minutes (refunded if it fails). The old clips are replaced when the new ones are ready. Refused while the video is processing (video_processing) and once its files are gone (source_deleted). Follow it with wait_for_completion.",
			inputSchema: inputs.reprocessVideo,
			outputSchema: outputs.reprocessVideo,
			annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
		},
		(args) =>
			run(async () => {
				const { video, reprocess, message } = await client.reprocess(args.videoId, args.config ?? {}, { idempotencyKey: args.idempotencyKey });
				return { videoId: video.id, reprocessId: reprocess.id, number: reprocess.number, status: video.status, minutesCharged: reprocess.minutesCharged, message };
			}),
	);

	server.registerTool(
		"delete_video",
		{
			title: "Delete a video",
			description: "Deletes a video, its clips and files for good (stopping its processing). Minutes are refunded only for work not yet delivered.",
			inputSchema: inputs.deleteVideo,
			outputSchema: outputs.deleteVideo,
			annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
		},
		(args) =>
			run(async () => {
				const deleted = await client.deleteVideo(args.videoId);
				return { videoId: deleted.id, deleted: deleted.deleted, minutesRefunded: deleted.minutesRefunded };
			}),
	);

	return server;
}

/**
 * A tool's answer: the structured result (and the same as JSON text, for clients that only read
 * text), or, when the API refused, a tool error with its code and message (and the whole error
 * under `_meta["clipforge/error"]`), never a protocol error or a crash.
 */
async function run<T extends Record<string, unknown>>(work: () => Promise<T>): Promise<CallToolResult> {
	try {
		const structured = await work();
		return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
	} catch (error) {
		if (!(error instanceof ClipforgeError)) throw error;
		const details = Array.isArray(error.details) ? (error.details as { path?: string; message?: string }[]).map((d) => `${d.path}: ${d.message}`).join("; ") : "";
		const text = `${error.code}: ${error.message}${details ? ` (${details})` : ""}`;
		return {
			isError: true,
			content: [{ type: "text", text }],
			_meta: { "clipforge/error": { code: error.code, message: error.message, status: error.status, details: error.details ?? null, requestId: error.requestId } },
		};
	}
}

const notAmong = (clipId: string, videoId: string) => new ClipforgeError("not_found", `Clip ${clipId} is not among the clips of video ${videoId} (list_clips shows them).`, { status: 404 });

function statusOf(status: VideoStatus) {
	return {
		videoId: status.video.id,
		title: status.video.title,
		status: status.video.status,
		progress: status.job.progress,
		stageProgress: status.job.stageProgress,
		errorMessage: status.video.errorMessage,
		updatedAt: status.job.updatedAt,
	};
}

function clipOf(c: Awaited<ReturnType<ApiClient["listClips"]>>["clips"][number]) {
	return {
		id: c.id, title: c.title, hookTitle: c.hookTitle, score: c.score, startTime: c.startTime, endTime: c.endTime, duration: c.duration,
		viralityReason: c.viralityReason, description: c.description, transcript: c.transcript, aspectRatio: c.aspectRatio, downloadUrl: c.downloadUrl, thumbnailUrl: c.thumbnailUrl,
	};
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
