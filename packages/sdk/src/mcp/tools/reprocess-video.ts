/** reprocess_video: a finished video's clips again with changed options, from its stored source and transcript. */
import { VIDEO_STATUSES } from "@clipforge/domain";
import * as z from "zod";
import { configShape } from "../config-shape.ts";
import { idempotencyKey, videoId } from "../shapes.ts";
import { defineTool } from "../tool.ts";

export const reprocessVideo = defineTool({
	name: "reprocess_video",
	title: "Regenerate a video's clips with new settings",
	description:
		"Makes a finished video's clips again with changed options (aspect ratio, durations, captions, hook titles, prompt, genre, model, smart crop, split-screen, watermark …) from its stored source and transcript: no new download or transcription. Only the options given change. The first reprocess of a video is free; later ones cost half its time frame's minutes (refunded if it fails). The old clips are replaced when the new ones are ready. Refused while the video is processing (video_processing) and once its files are gone (source_deleted). Follow it with wait_for_completion.",
	input: {
		videoId,
		config: z
			.strictObject(configShape)
			.optional()
			.describe(
				"Only the options to change; the others keep the video's current values. language and the transcribed time frame cannot change.",
			),
		idempotencyKey,
	},
	output: {
		videoId: z.string(),
		reprocessId: z.string(),
		number: z.number(),
		status: z
			.enum(VIDEO_STATUSES)
			.describe("The video's status now (analyzing): follow it with wait_for_completion."),
		minutesCharged: z.number().describe("0 for a free reprocess."),
		message: z.string(),
	},
	annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
	async run(client, args) {
		const { video, reprocess, message } = await client.reprocess(args.videoId, args.config ?? {}, {
			idempotencyKey: args.idempotencyKey,
		});
		return {
			videoId: video.id,
			reprocessId: reprocess.id,
			number: reprocess.number,
			status: video.status,
			minutesCharged: reprocess.minutesCharged,
			message,
		};
	},
});
