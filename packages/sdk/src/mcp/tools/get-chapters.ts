/** get_chapters: the whole video's chapters, summary and show notes. */
import { z } from "zod";
import { videoId } from "../shapes.ts";
import { defineTool, READ_ONLY } from "../tool.ts";

export const getChapters = defineTool({
	name: "get_chapters",
	title: "Get a video's chapters",
	description:
		"The whole video's chapters for YouTube (the first at 0:00, at least three, each at least 10 s), its summary, and `description`: show notes ready to paste under the video (the summary, then `MM:SS Title` lines). The video must be completed; a video too short for chapters has none and `note` says so.",
	input: { videoId },
	output: {
		chapters: z.array(
			z.object({
				start: z.number().describe("Seconds from the start."),
				end: z.number(),
				title: z.string(),
				summary: z.string(),
			}),
		),
		summary: z.string(),
		description: z.string().describe("Ready-to-paste show notes."),
		madeBy: z.enum(["llm", "offline"]),
		note: z.string().nullable(),
	},
	annotations: READ_ONLY,
	run: async (client, args) => client.chapters(args.videoId),
});
