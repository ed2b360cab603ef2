/** Schemas and views several tools share: ids, a video's status, a clip. */
import { VIDEO_STATUSES } from "@clipforge/domain";
import * as z from "zod";
import type { ApiClient, VideoStatus } from "../api-client.ts";

export const videoId = z.string().min(1).describe("A video id, `vid_…` (from submit_video or list_videos).");
export const clipId = z.string().min(1).describe("A clip id, `clp_…` (from list_clips).");
/** What the API takes as an Idempotency-Key; anything else would not even fit in the header (a line break throws). */
export const idempotencyKey = z
	.string()
	.regex(/^[\x21-\x7e]{1,255}$/, "1-255 visible ASCII characters")
	.optional()
	.describe(
		"Any string unique to this request: sending the same one again returns the first answer and charges once.",
	);

export const statusShape = {
	videoId: z.string(),
	title: z.string(),
	status: z
		.enum(VIDEO_STATUSES)
		.describe(
			"pending_config, downloading, uploading, transcribing, analyzing, generating_clips, then completed or failed.",
		),
	progress: z.number().describe("0-100 over the whole run."),
	stageProgress: z.number().describe("0-100 through the current stage."),
	errorMessage: z.string().nullable().describe("Why it failed; null unless failed."),
	updatedAt: z.string(),
};

export const clipSchema = z.object({
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

export function statusOf(status: VideoStatus) {
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

/** A clip as the tools show it (the API's view, fewer fields). */
export function clipOf(c: Awaited<ReturnType<ApiClient["listClips"]>>["clips"][number]): z.infer<typeof clipSchema> {
	return Object.fromEntries(CLIP_FIELDS.map((field) => [field, c[field]])) as z.infer<typeof clipSchema>;
}

/** The fields of a clip the tools show, in the order they show them. */
const CLIP_FIELDS = [
	"id",
	"title",
	"hookTitle",
	"score",
	"startTime",
	"endTime",
	"duration",
	"viralityReason",
	"description",
	"transcript",
	"aspectRatio",
	"downloadUrl",
	"thumbnailUrl",
] as const satisfies readonly (keyof z.infer<typeof clipSchema>)[];
