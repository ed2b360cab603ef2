/** submit_video: a video URL for clipping, processing at once (charged). */
import { VIDEO_STATUSES } from "@clipforge/domain";
import * as z from "zod";
import { configShape } from "../config-shape.ts";
import { idempotencyKey } from "../shapes.ts";
import { defineTool } from "../tool.ts";

export const submitVideo = defineTool({
	name: "submit_video",
	title: "Submit a video",
	description:
		"Submits a video URL for clipping and starts processing at once. Charges ceil(minutes of the time frame) from the workspace (refunded if processing fails). Returns the videoId: follow it with wait_for_completion, then list_clips. Every config option is optional.",
	input: {
		hostedUrl: z.string().describe("The video's URL (a direct media file or a page yt-dlp can read)."),
		config: z.strictObject(configShape).optional().describe("Processing options; every one is optional."),
		projectId: z.string().optional().describe("A project id to file the video under."),
		captionsUrl: z
			.string()
			.optional()
			.describe(
				"The video's captions to read instead of transcribing (SRT or WebVTT at this URL): any language.",
			),
		captionsText: z
			.string()
			.optional()
			.describe("The same, as the file's text (up to 60,000 characters); captionsUrl wins when both are given."),
		idempotencyKey,
	},
	output: {
		videoId: z.string(),
		status: z.enum(VIDEO_STATUSES),
		title: z.string(),
		language: z.string().nullable().describe("The speech's language when known (the config's, or the captions')."),
		transcriptSource: z
			.string()
			.describe(
				"Where the words will come from: transcription, the supplied captions, or the source's own subtitles.",
			),
		durationSeconds: z.number(),
		minutesCharged: z.number(),
		message: z.string(),
	},
	annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
	async run(client, args) {
		const captions = args.captionsUrl
			? { url: args.captionsUrl }
			: args.captionsText
				? { text: args.captionsText }
				: undefined;
		const submitted = await client.submit(args.hostedUrl, args.config ?? {}, {
			projectId: args.projectId,
			idempotencyKey: args.idempotencyKey,
			...(captions ? { captions } : {}),
		});
		const detail = await client.video(submitted.video.id);
		return {
			videoId: submitted.video.id,
			status: detail.status,
			title: submitted.videoInfo.title,
			language: detail.language ?? null,
			transcriptSource: detail.transcriptSource ?? "transcription",
			durationSeconds: submitted.videoInfo.duration,
			minutesCharged: detail.minutesCharged,
			message: submitted.message,
		};
	},
});
