/**
 * The MCP tools' input and output schemas (zod). The config's fields come from the same table the
 * API's own config schema is built from (config-shape.ts); the bounds and the rules across fields
 * are stated in the descriptions and judged by the API itself, so a value it refuses comes back as
 * a tool error with the API's own code and message. packages/sdk/test/mcp.test.ts checks these
 * against the API's OpenAPI document.
 */
import * as z from "zod";
import { CAPTION_TEMPLATES, CLIP_API_STATUSES, VIDEO_STATUSES } from "@clipforge/domain";
import { configShape } from "./config-shape.ts";

const videoId = z.string().min(1).describe("A video id, `vid_…` (from submit_video or list_videos).");

const workspace = z.object({
	id: z.string(),
	name: z.string(),
	minutesBalance: z.number().describe("Minutes left to spend on videos."),
	plan: z.object({ name: z.string(), active: z.boolean(), maxVideoSeconds: z.number(), expiresAt: z.string().nullable() }).nullable(),
});

const status = z.object({
	videoId: z.string(),
	title: z.string(),
	status: z.enum(VIDEO_STATUSES).describe("pending_config, downloading, uploading, transcribing, analyzing, generating_clips, then completed or failed."),
	progress: z.number().describe("0-100 over the whole run."),
	stageProgress: z.number().describe("0-100 through the current stage."),
	errorMessage: z.string().nullable().describe("Why it failed; null unless failed."),
	updatedAt: z.string(),
});

const clip = z.object({
	id: z.string(),
	title: z.string(),
	hookTitle: z.string().nullable(),
	score: z.number().describe("0-100: how likely it is to work as a short."),
	startTime: z.number(),
	endTime: z.number(),
	duration: z.number(),
	viralityReason: z.string(),
	description: z.string().describe("A post caption with hashtags."),
	transcript: z.string(),
	aspectRatio: z.string(),
	downloadUrl: z.string().describe("The MP4; a signed link valid for one hour, no credentials needed."),
	thumbnailUrl: z.string(),
});

export const inputs = {
	listWorkspaces: {},
	listVideos: {
		status: z.enum(VIDEO_STATUSES).optional().describe("Only videos in this status."),
		limit: z.number().int().optional().describe("How many (1-100, default 20)."),
		cursor: z.string().optional().describe("nextCursor of the previous page."),
	},
	submitVideo: {
		hostedUrl: z.string().describe("The video's URL (a direct media file or a page yt-dlp can read)."),
		config: z.strictObject(configShape).optional().describe("Processing options; every one is optional."),
		projectId: z.string().optional().describe("A project id to file the video under."),
		idempotencyKey: z.string().optional().describe("Any string unique to this request: sending the same one again returns the first answer and charges once."),
	},
	getStatus: { videoId },
	waitForCompletion: {
		videoId,
		timeoutSeconds: z.number().optional().describe("How long to wait at most (5-600, default 50). If the video is not done by then, the answer says so: call again."),
		pollSeconds: z.number().optional().describe("How often to look (2-30, default 10)."),
	},
	listClips: {
		videoId,
		minScore: z.number().optional().describe("Only clips scoring at least this (0-100)."),
		sort: z.enum(["score", "time"]).optional().describe("score: best first (default); time: in the order they occur."),
		limit: z.number().int().optional().describe("How many (1-100, default 100)."),
		cursor: z.string().optional().describe("nextCursor of the previous page."),
	},
	getClip: { videoId, clipId: z.string().min(1).describe("A clip id, `clp_…` (from list_clips).") },
	updateClip: {
		clipId: z.string().min(1).describe("A clip id, `clp_…` (from list_clips)."),
		favorited: z.boolean().optional().describe("Mark or unmark as a favorite."),
		title: z.string().optional().describe("A new title (1-200 characters)."),
		hookTitle: z.string().nullable().optional().describe("A new hook title (re-renders the clip when the video draws hook titles)."),
		startTime: z.number().optional().describe("New start, seconds in the source (snapped to the nearest word start). Re-renders the clip."),
		endTime: z.number().optional().describe("New end, seconds in the source (snapped to the nearest word end). Re-renders the clip."),
		captionStyle: z
			.string()
			.nullable()
			.optional()
			.describe(`The clip's own caption look (turns its captions on): a preset (${CAPTION_TEMPLATES.join(", ")}) or custom:<id> of the workspace; null = the video's. Re-renders the clip.`),
		captionWords: z.array(z.object({ index: z.number().int(), word: z.string() })).optional().describe("Corrected caption words: index into get_clip's words, and the new text; timings stay."),
	},
	reprocessVideo: {
		videoId,
		config: z.strictObject(configShape).optional().describe("Only the options to change; the others keep the video's current values. language and the transcribed time frame cannot change."),
		idempotencyKey: z.string().optional().describe("Any string unique to this request: sending the same one again returns the first answer and charges once."),
	},
	deleteVideo: { videoId },
};

export const outputs = {
	listWorkspaces: { workspaces: z.array(workspace) },
	listVideos: {
		videos: z.array(z.object({ id: z.string(), title: z.string(), status: z.enum(VIDEO_STATUSES), progress: z.number(), errorMessage: z.string().nullable(), minutesCharged: z.number(), createdAt: z.string() })),
		nextCursor: z.string().nullable(),
	},
	submitVideo: {
		videoId: z.string(),
		status: z.enum(VIDEO_STATUSES),
		title: z.string(),
		durationSeconds: z.number(),
		minutesCharged: z.number(),
		message: z.string(),
	},
	getStatus: status.shape,
	waitForCompletion: {
		done: z.boolean().describe("true once the video is completed or failed; false when the wait timed out (call again)."),
		...status.shape,
	},
	listClips: { videoId: z.string(), status: z.enum(VIDEO_STATUSES), clips: z.array(clip), count: z.number(), nextCursor: z.string().nullable() },
	getClip: { videoId: z.string(), clip, words: z.array(z.object({ index: z.number(), word: z.string() })).describe("The clip's caption words (corrections applied)."), linksExpireInSeconds: z.number() },
	updateClip: {
		clip,
		status: z.enum(CLIP_API_STATUSES).describe("generating while the clip is rendered again; completed when saved without rendering."),
		rendering: z.boolean().describe("true when the change re-renders the clip."),
		favorited: z.boolean(),
		edits: z.number().describe("Re-renders so far (free up to 20 per clip)."),
		editError: z.string().nullable().describe("Why the last re-render failed (the clip kept its previous version)."),
	},
	reprocessVideo: {
		videoId: z.string(),
		reprocessId: z.string(),
		number: z.number(),
		status: z.enum(VIDEO_STATUSES).describe("The video's status now (analyzing): follow it with wait_for_completion."),
		minutesCharged: z.number().describe("0 for a free reprocess."),
		message: z.string(),
	},
	deleteVideo: { videoId: z.string(), deleted: z.boolean(), minutesRefunded: z.number() },
};
