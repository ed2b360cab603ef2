/** list_clips: a completed video's clips, best first (or in time order), with fresh download links. */
import { VIDEO_STATUSES } from "@clipforge/domain";
import * as z from "zod";
import { clipOf, clipSchema, videoId } from "../shapes.ts";
import { defineTool, READ_ONLY } from "../tool.ts";

export const listClips = defineTool({
	name: "list_clips",
	title: "List a video's clips",
	description:
		"The clips of a completed video, best score first (or in time order), each with a fresh signed download link valid for one hour. Empty while the video is still processing. rankingNote says why a video has fewer clips than its talk has room for, or none.",
	input: {
		videoId,
		minScore: z.number().optional().describe("Only clips scoring at least this (0-100)."),
		sort: z
			.enum(["score", "time"])
			.optional()
			.describe("score: best first (default); time: in the order they occur."),
		limit: z.number().int().optional().describe("How many (1-100, default 100)."),
		cursor: z.string().optional().describe("nextCursor of the previous page."),
	},
	output: {
		videoId: z.string(),
		status: z.enum(VIDEO_STATUSES),
		rankingNote: z
			.string()
			.nullable()
			.describe("Why the video has fewer clips than its talk has room for, or none; null otherwise."),
		clips: z.array(clipSchema),
		count: z.number(),
		nextCursor: z.string().nullable(),
	},
	annotations: READ_ONLY,
	async run(client, args) {
		const [page, video] = await Promise.all([
			client.listClips(args.videoId, {
				minScore: args.minScore,
				sort: args.sort,
				limit: args.limit,
				cursor: args.cursor,
			}),
			client.video(args.videoId),
		]);
		return {
			videoId: page.videoId,
			status: page.status,
			rankingNote: video.rankingNote,
			clips: page.clips.map(clipOf),
			count: page.count,
			nextCursor: page.nextCursor,
		};
	},
});
