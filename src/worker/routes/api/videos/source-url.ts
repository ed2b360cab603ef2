/**
 * GET /api/videos/{id}/source-url: a signed link to the video's stored source, valid one hour, for
 * a player (the dashboard's chapter list seeks it to a chapter's start). A link is a delivery, so
 * it is handed out only once the video is completed (services/source-link.ts). The link itself is
 * served by source-file.ts, as clip downloads are.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import type { Api } from "../../../env";
import { sourceLinkFor } from "../../../services/source-link";
import { BEARER_OR_SESSION, errorResponses, jsonOk } from "../../openapi";
import { VideoId } from "./schemas";
import { requireVideo } from "./views";

const SourceUrlSchema = z
	.object({
		url: z.string().openapi({
			description:
				"The stored source video, with HTTP Range support (a player can seek in it). No credentials needed: the token in it is valid one hour; ask again for a fresh one.",
		}),
		expiresAt: z.string().openapi({ description: "When the link stops working (ISO 8601)." }),
		startsAt: z.number().openapi({
			description:
				"Where the file begins in the source, in seconds: only the video's time frame is kept, so the file's 0:00 is this second of the source (0 when the frame starts at the beginning). Clips, words and chapters are in the source's seconds: seek a player to `time - startsAt`.",
		}),
		keptUntil: z.string().openapi({
			description:
				"When the stored source is deleted (ISO 8601): sources are kept a retention (7 days by default) after the video completed; after that this route, the link, a reprocess and a clip re-render answer 410 `source_deleted`, while the clips, transcript and chapters stay.",
		}),
	})
	.openapi("SourceUrl");

const sourceUrlRoute = createRoute({
	method: "get",
	path: "/videos/{id}/source-url",
	tags: ["videos"],
	summary: "A signed link to the video's stored source, for a player",
	description:
		"The source as the service stored it (downloaded or uploaded), to play and seek, e.g. to a chapter's `start`: only the video's time frame is kept (what it was charged for), beginning at `startsAt` of the source. " +
		"A link is a delivery: it is handed out only once the video has `completed` its first run (before that, 409 `conflict` with `details.status`; a later reprocess does not take it back), " +
		"and once one was signed, deleting the video refunds nothing. 410 `source_deleted` once the stored source is gone: past its retention (`keptUntil`), or a video whose first run failed.",
	security: BEARER_OR_SESSION,
	request: { params: z.object({ id: VideoId }) },
	responses: { 200: jsonOk(SourceUrlSchema, "The signed link."), ...errorResponses(401, 404, 409, 410) },
});

export function registerSourceUrl(api: Api) {
	api.openapi(sourceUrlRoute, async (c) => {
		const { id } = c.req.valid("param");
		const db = getDb(c.env);
		const video = await requireVideo(db, id, c.get("principal").workspaceIds);
		return c.json(await sourceLinkFor(c.env, db, video, new URL(c.req.url).origin), 200);
	});
}
