/** GET /api/clips/{id}: one clip (the list's view plus its caption words). */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import type { Api } from "../../../env";
import { BEARER_OR_SESSION, errorResponses, jsonOk } from "../../openapi";
import { ClipDetail, ClipId } from "../videos/schemas";
import { detailOf, loadClip } from "./clip-detail";

const clipRoute = createRoute({
	method: "get",
	path: "/clips/{id}",
	tags: ["clips"],
	summary: "One clip, with freshly signed URLs and its caption words",
	security: BEARER_OR_SESSION,
	request: { params: z.object({ id: ClipId }) },
	responses: { 200: jsonOk(ClipDetail, "The clip."), ...errorResponses(401, 404) },
});

export function registerGetClip(api: Api) {
	api.openapi(clipRoute, async (c) => {
		const db = getDb(c.env);
		const { clip, video } = await loadClip(db, c.req.valid("param").id, c.get("principal").workspaceIds);
		c.header("Cache-Control", "no-store");
		return c.json(await detailOf(c.env, new URL(c.req.url).origin, video, clip), 200);
	});
}
