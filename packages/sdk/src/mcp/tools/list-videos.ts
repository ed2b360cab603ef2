/** list_videos: the workspace's videos, newest first, with their status. */
import { VIDEO_STATUSES } from "@clipforge/domain";
import * as z from "zod";
import { defineTool, READ_ONLY } from "../tool.ts";

const video = z.object({
	id: z.string(),
	title: z.string(),
	status: z.enum(VIDEO_STATUSES),
	progress: z.number(),
	errorMessage: z.string().nullable(),
	minutesCharged: z.number(),
	createdAt: z.string(),
});

export const listVideos = defineTool({
	name: "list_videos",
	title: "List videos",
	description: "The workspace's videos, newest first, with their status.",
	input: {
		status: z.enum(VIDEO_STATUSES).optional().describe("Only videos in this status."),
		limit: z.number().int().optional().describe("How many (1-100, default 20)."),
		cursor: z.string().optional().describe("nextCursor of the previous page."),
	},
	output: { videos: z.array(video), nextCursor: z.string().nullable() },
	annotations: READ_ONLY,
	async run(client, args) {
		const page = await client.listVideos({ status: args.status, limit: args.limit ?? 20, cursor: args.cursor });
		const videos = page.videos.map((v) => ({
			id: v.id,
			title: v.title,
			status: v.status,
			progress: v.progress,
			errorMessage: v.errorMessage,
			minutesCharged: v.minutesCharged,
			createdAt: v.createdAt,
		}));
		return { videos, nextCursor: page.nextCursor };
	},
});
