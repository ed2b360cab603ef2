/**
 * The MCP tools' input and output schemas (zod). Types and enums come from the same constants the
 * API's own config schema is built from (`@clipforge/domain`); the bounds and the
 * rules across fields are stated in the descriptions and judged by the API itself, so a value it
 * refuses comes back as a tool error with the API's own code and message. packages/sdk/test/mcp.test.ts
 * checks these against the API's OpenAPI document.
 */
import * as z from "zod";
import {
	ASPECT_RATIOS, BACKGROUND_CATEGORY_IDS, CAPTION_TEMPLATES, CLIP_MODELS, CLIP_SECONDS, CLIP_TYPES, CONFIG_DEFAULTS as D, CUSTOM_PROMPT_MAX, GENRES, LAYOUTS, SILENCE_THRESHOLD, SPLIT_RATIO,
} from "@clipforge/domain";
import { CLIP_API_STATUSES, VIDEO_STATUSES } from "@clipforge/domain";

const videoId = z.string().min(1).describe("A video id, `vid_…` (from submit_video or list_videos).");

/** Every option of a video's config; each one optional (the API's default, or the video's current value, stays). */
export const configShape = {
	clipType: z.enum(CLIP_TYPES).optional().describe(`viral-clips: the best moments, ranked by score; split-clips: the whole time frame cut into consecutive parts. Default ${D.clipType}.`),
	clipModel: z.enum(CLIP_MODELS).optional().describe(`Who picks the moments: ClipBasic (fast) or ClipPro (a stronger model, two passes). Default ${D.clipModel}.`),
	genre: z.enum(GENRES).optional().describe(`What kind of video it is (tunes the ranking). Default ${D.genre}.`),
	clipDurationMin: z.number().optional().describe(`Shortest clip, seconds (${CLIP_SECONDS.min}-${CLIP_SECONDS.max}). Default ${D.clipDurationMin}.`),
	clipDurationMax: z.number().optional().describe(`Longest clip, seconds (${CLIP_SECONDS.min}-${CLIP_SECONDS.max}, at least clipDurationMin). Default ${D.clipDurationMax}.`),
	aspectRatio: z.enum(ASPECT_RATIOS).optional().describe(`9:16 for Shorts/Reels/TikTok, 1:1 square, 16:9 landscape. Default ${D.aspectRatio}.`),
	enableCaptions: z.boolean().optional().describe(`Burn captions into the clips. Default ${D.enableCaptions}.`),
	captionTemplateId: z
		.string()
		.optional()
		.describe(
			`Caption look: a preset (${CAPTION_TEMPLATES.join(", ")}) or custom:<id>, one of the workspace's own templates (GET /api/caption-templates lists them with preview images). Default ${D.captionTemplateId}.`,
		),
	enableIntroTitle: z.boolean().optional().describe(`A hook title over each clip's first 3 seconds. Default ${D.enableIntroTitle}.`),
	language: z.string().nullable().optional().describe("Two-letter language code of the speech (en, es, hi …); null detects it. Default null."),
	timeframeStart: z.number().optional().describe("Only use the video from this second on (skip an intro). Default 0."),
	timeframeEnd: z.number().nullable().optional().describe("Only use the video up to this second; null = to the end. Default null."),
	enableSplitScreen: z.boolean().optional().describe(`Put the video over a looping background (split-screen). Default ${D.enableSplitScreen}.`),
	splitScreenBgVideoId: z.string().nullable().optional().describe("A background id for split-screen (GET /api/backgrounds lists them); null picks one from the category."),
	splitScreenBgCategoryId: z.string().nullable().optional().describe(`A background category for split-screen: ${BACKGROUND_CATEGORY_IDS.join(", ")}. Default satisfying.`),
	splitRatio: z.number().optional().describe(`Share of the height the video takes in split-screen, percent (${SPLIT_RATIO.min}-${SPLIT_RATIO.max}). Default ${D.splitRatio}.`),
	enableSmartCrop: z.boolean().optional().describe(`Follow the speaker's face when cropping. Default ${D.enableSmartCrop}.`),
	layout: z.enum(LAYOUTS).optional().describe(`How a vertical or square clip frames two people: auto (follow the active speaker, or stack both faces when who speaks is unclear; otherwise as enableSmartCrop says), follow-speaker, stacked, single (never a speaker layout). Default ${D.layout}.`),
	enableWatermark: z.boolean().optional().describe(`Draw the workspace's watermark. Default ${D.enableWatermark}.`),
	skipClipping: z.boolean().optional().describe(`Only transcribe, make no clips. Default ${D.skipClipping}.`),
	removeSilences: z.boolean().optional().describe(`Cut the pauses inside each clip (jump cuts; captions follow); the clip's duration is then the cut one. Default ${D.removeSilences}.`),
	silenceThresholdSeconds: z.number().optional().describe(`With removeSilences: the shortest pause cut, seconds (${SILENCE_THRESHOLD.min}-${SILENCE_THRESHOLD.max}). Default ${D.silenceThresholdSeconds}.`),
	customPrompt: z.string().nullable().optional().describe(`What to look for, in plain words (up to ${CUSTOM_PROMPT_MAX} characters): relevance to it then leads the ranking.`),
};

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
