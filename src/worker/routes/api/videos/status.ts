/** GET /api/videos/{id}/status: stage and progress (poll every 10-15 s). */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import { queuePosition } from "../../../db/slots";
import type { Api } from "../../../env";
import { addTiming, timed } from "../../../middleware/server-timing";
import { etagOf, holds, notModified, setRevalidate } from "../../conditional";
import { BEARER_OR_SESSION, errorResponses, jsonOk } from "../../openapi";
import { VideoId, VideoStatusResponse } from "./schemas";
import { loadVideo, videoStatusView } from "./views";

const statusRoute = createRoute({
	method: "get",
	path: "/videos/{id}/status",
	tags: ["videos"],
	summary: "Processing status and progress (poll every 10-15 s; send the last ETag as If-None-Match to get 304 while nothing changed)",
	security: BEARER_OR_SESSION,
	request: { params: z.object({ id: VideoId }) },
	responses: { 200: jsonOk(VideoStatusResponse, "Current status, with an ETag."), ...notModified, ...errorResponses(401, 404) },
});

export const registerStatus = (api: Api) => api.openapi(statusRoute, async (c) => {
	const { id } = c.req.valid("param");
	const db = getDb(c.env);
	const row = await timed(c, "d1", loadVideo(db, id, c.get("principal").workspaceIds));
	// One more read only for a video that waits for a slot.
	const position = row.status === "downloading" && !row.slotClaimedAt ? await timed(c, "d1-queue", queuePosition(db, row.id, row.workspaceId)) : null;
	const started = performance.now();
	const body = videoStatusView(row, position);
	const etag = etagOf(body);
	addTiming(c, "view", performance.now() - started);
	setRevalidate(c, etag);
	if (holds(c, etag)) return c.body(null, 304);
	return c.json(body, 200);
});
