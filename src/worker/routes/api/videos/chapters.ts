/**
 * GET /api/videos/{id}/chapters: the whole video's chapters (YouTube's rules: the first at 0:00, at
 * least three, each ≥ 10 s), its summary and ready-to-paste show notes. Served once the video is
 * `completed`, like the transcript they are made from.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import type { Api } from "../../../env";
import { ApiError } from "../../../errors";
import { readChapters } from "../../../services/chapters/stored-chapters";
import { BEARER_OR_SESSION, errorResponses } from "../../openapi";
import { VideoId } from "./schemas";
import { requireVideo } from "./views";

const ChapterSchema = z
	.object({
		start: z.number().openapi({ description: "Seconds from the start of the video (the first is 0)." }),
		end: z.number(),
		title: z.string(),
		summary: z.string().openapi({ description: "One sentence on what the chapter says." }),
	})
	.openapi("Chapter");

export const ChaptersSchema = z
	.object({
		chapters: z.array(ChapterSchema).openapi({
			description:
				"In order, covering the whole video; empty when the video is too short for YouTube's rules (then `note` says so).",
		}),
		summary: z.string().openapi({ description: "A few sentences on the whole video." }),
		description: z.string().openapi({
			description:
				"Ready-to-paste show notes: the summary, a blank line, then one `MM:SS Title` line per chapter (`H:MM:SS` when the video lasts an hour or more).",
		}),
		madeBy: z.enum(["llm", "offline"]).openapi({
			description: "`llm`: written by the configured model; `offline`: topic segmentation without a model.",
		}),
		note: z.string().nullable().openapi({ description: "Why there are no chapters, else null." }),
	})
	.openapi("Chapters");

const chaptersRoute = createRoute({
	method: "get",
	path: "/videos/{id}/chapters",
	tags: ["videos"],
	summary: "The whole video's chapters, summary and show notes",
	description:
		"Chapters for the long video (YouTube's rules: the first at 0:00, at least three, each at least 10 s long), a summary and `description`, ready to paste under it. Served once the video is `completed` (`skipClipping` videos included); before that, or for a failed video, 409 `conflict` with `details.status`.",
	security: BEARER_OR_SESSION,
	request: { params: z.object({ id: VideoId }) },
	responses: {
		200: { content: { "application/json": { schema: ChaptersSchema } }, description: "The chapters." },
		...errorResponses(401, 404, 409),
	},
});

export const registerChapters = (api: Api) =>
	api.openapi(chaptersRoute, async (c) => {
		const { id } = c.req.valid("param");
		const video = await requireVideo(getDb(c.env), id, c.get("principal").workspaceIds);
		if (video.status !== "completed") {
			const why =
				video.status === "failed"
					? "the video failed, so it has no chapters"
					: `the video is ${video.status}; chapters are served once the video is completed`;
			throw new ApiError("conflict", `No chapters: ${why}.`, { status: video.status });
		}
		const chapters = await readChapters(c.env.MEDIA, video);
		if (!chapters)
			throw new ApiError("conflict", "The video has no stored transcript to make chapters from.", {
				status: video.status,
			});
		return c.json(chapters, 200);
	});
