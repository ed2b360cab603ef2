/** delete_video: a video, its clips and files, for good (refunded only for work not yet delivered). */
import * as z from "zod";
import { videoId } from "../shapes.ts";
import { defineTool } from "../tool.ts";

export const deleteVideo = defineTool({
	name: "delete_video",
	title: "Delete a video",
	description:
		"Deletes a video, its clips and files for good (stopping its processing). Minutes are refunded only for work not yet delivered.",
	input: { videoId },
	output: { videoId: z.string(), deleted: z.boolean(), minutesRefunded: z.number() },
	annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
	async run(client, args) {
		const deleted = await client.deleteVideo(args.videoId);
		return { videoId: deleted.id, deleted: deleted.deleted, minutesRefunded: deleted.minutesRefunded };
	},
});
