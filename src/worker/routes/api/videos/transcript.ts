/**
 * GET /api/videos/{id}/transcript: JSON with word timings, or SRT, WebVTT or plain text. Served
 * only once the video is `completed` (a `skipClipping` video completes right after transcription):
 * a transcript handed out mid-processing, followed by a DELETE that refunds, would be free work.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import type { Api } from "../../../env";
import { ApiError } from "../../../errors";
import type { Transcript } from "@clipforge/moments/text";
import { toSrt, toText, toVtt, TRANSCRIPT_FORMATS } from "../../../services/transcription/transcript-formats";
import { BEARER_OR_SESSION, errorResponses } from "../../openapi";
import { VideoId } from "./schemas";
import { requireVideo } from "./views";

const Word = z.object({ word: z.string(), start: z.number(), end: z.number() });
const TranscriptSchema = z
	.object({
		language: z.string(),
		duration: z.number(),
		text: z.string(),
		segments: z.array(z.object({ start: z.number(), end: z.number(), text: z.string(), words: z.array(Word) })),
		words: z.array(Word),
	})
	.openapi("Transcript");

const transcriptRoute = createRoute({
	method: "get",
	path: "/videos/{id}/transcript",
	tags: ["videos"],
	summary: "The transcript with word timings (JSON), or as SRT, WebVTT or plain text",
	description:
		"Served once the video is `completed` (with `skipClipping: true` it completes right after transcription); before that, or for a failed video, 409 `conflict` with `details.status`.",
	security: BEARER_OR_SESSION,
	request: {
		params: z.object({ id: VideoId }),
		query: z.object({ format: z.enum(TRANSCRIPT_FORMATS).default("json") }),
	},
	responses: {
		200: {
			content: {
				"application/json": { schema: TranscriptSchema },
				"application/x-subrip": { schema: z.string() },
				"text/vtt": { schema: z.string() },
				"text/plain": { schema: z.string() },
			},
			description: "The transcript.",
		},
		...errorResponses(400, 401, 404, 409),
	},
});

export const registerTranscript = (api: Api) =>
	api.openapi(transcriptRoute, async (c) => {
		const { id } = c.req.valid("param");
		const { format } = c.req.valid("query");
		const video = await requireVideo(getDb(c.env), id, c.get("principal").workspaceIds);
		if (video.status !== "completed") {
			const why =
				video.status === "failed"
					? "the video failed, so it has no transcript"
					: `the video is ${video.status}; the transcript is served once the video is completed`;
			throw new ApiError("conflict", `No transcript: ${why}.`, { status: video.status });
		}
		const object = video.transcriptKey ? await c.env.MEDIA.get(video.transcriptKey) : null;
		if (!object) throw new ApiError("conflict", "The video has no stored transcript.", { status: video.status });
		const transcript = (await object.json()) as Transcript;
		const name = `${id}.${format}`;
		const disposition = { "content-disposition": `inline; filename="${name}"` };
		if (format === "srt")
			return c.body(toSrt(transcript), 200, {
				"content-type": "application/x-subrip; charset=utf-8",
				...disposition,
			});
		if (format === "vtt")
			return c.body(toVtt(transcript), 200, { "content-type": "text/vtt; charset=utf-8", ...disposition });
		if (format === "txt")
			return c.body(toText(transcript), 200, { "content-type": "text/plain; charset=utf-8", ...disposition });
		return c.json(transcript, 200);
	});
