/** GET /api/videos/{id}: the full record. */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import type { Api } from "../../../env";
import { BEARER_OR_SESSION, errorResponses, jsonOk } from "../../openapi";
import { VideoDetail, VideoId } from "./schemas";
import { requireVideo, videoDetailOf } from "./views";

const detailRoute = createRoute({
	method: "get",
	path: "/videos/{id}",
	tags: ["videos"],
	summary: "The full video record: config, duration, language, error, charge, clip counts",
	security: BEARER_OR_SESSION,
	request: { params: z.object({ id: VideoId }) },
	responses: { 200: jsonOk(VideoDetail, "The video."), ...errorResponses(401, 404) },
});

export function registerVideo(api: Api) {
	api.openapi(detailRoute, async (c) => {
		const { id } = c.req.valid("param");
		const db = getDb(c.env);
		return c.json(await videoDetailOf(db, await requireVideo(db, id, c.get("principal").workspaceIds)), 200);
	});
}
