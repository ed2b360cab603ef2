/** GET /api/clips/{id}/captions: the clip's captions as SRT or WebVTT. */
import { createRoute, z } from "@hono/zod-openapi";
import { retimeWords } from "@clipforge/contract";
import { CAPTION_FORMATS } from "@clipforge/domain";
import { getDb } from "../../../db/client";
import { relativeWords } from "../../../domain/clip-edit";
import type { Api } from "../../../env";
import { ApiError } from "../../../errors";
import { CAPTION_CONTENT_TYPE, captionsOf } from "../../../services/exports/captions";
import { BEARER_OR_SESSION, errorResponses } from "../../openapi";
import { ClipId } from "../videos/schemas";
import { loadClip, wordsOfClip } from "./clip-detail";

const captionsRoute = createRoute({
	method: "get",
	path: "/clips/{id}/captions",
	tags: ["clips"],
	summary: "The clip's captions as SRT or WebVTT (times from the clip's start, corrections applied)",
	security: BEARER_OR_SESSION,
	request: { params: z.object({ id: ClipId }), query: z.object({ format: z.enum(CAPTION_FORMATS).default("srt") }) },
	responses: {
		200: {
			content: { "application/x-subrip": { schema: z.string() }, "text/vtt": { schema: z.string() } },
			description: "The captions.",
		},
		...errorResponses(400, 401, 404, 410),
	},
});

export function registerClipCaptions(api: Api) {
	api.openapi(captionsRoute, async (c) => {
		const db = getDb(c.env);
		const { id } = c.req.valid("param");
		const { format } = c.req.valid("query");
		const { clip, video } = await loadClip(db, id, c.get("principal").workspaceIds);
		const stored = await wordsOfClip(c.env, video, clip);
		if (!stored)
			throw new ApiError(
				"source_deleted",
				"The video's stored transcript is no longer there, so its captions cannot be made.",
			);
		const words = retimeWords(relativeWords(stored, clip.startTime, clip.endTime), clip.jumpCuts);
		const name = `${clip.id}.${format}`;
		return c.body(captionsOf(words, format), 200, {
			"content-type": CAPTION_CONTENT_TYPE[format],
			"content-disposition": `attachment; filename="${name}"`,
		});
	});
}
