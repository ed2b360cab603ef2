/** PUT /api/videos/{id}/config: the config of a pending_config video, which then starts processing. */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import { VideoConfigInput } from "../../../domain/video-config";
import type { Api } from "../../../env";
import { configureVideo } from "../../../services/configure-video";
import { BEARER_OR_SESSION, errorResponses, jsonBody, jsonOk } from "../../openapi";
import { VideoDetail, VideoId } from "./schemas";
import { requireVideo, videoDetailView } from "./views";

const configRoute = createRoute({
	method: "put",
	path: "/videos/{id}/config",
	tags: ["videos"],
	summary: "Supply the config of a pending_config video and start processing",
	security: BEARER_OR_SESSION,
	request: { params: z.object({ id: VideoId }), body: jsonBody(VideoConfigInput) },
	description:
		"Like a submission with a config, the video may wait for one of its workspace's processing slots (`job.queuePosition`), or be refused with 429 `queue_full` when too many already wait.",
	responses: {
		200: jsonOk(VideoDetail, "Processing started (or waiting for a slot)."),
		...errorResponses(400, 401, 404, 409, 429),
	},
});

export const registerConfigure = (api: Api) =>
	api.openapi(configRoute, async (c) => {
		const { id } = c.req.valid("param");
		const db = getDb(c.env);
		const row = await requireVideo(db, id, c.get("principal").workspaceIds);
		await configureVideo(c.env, db, row, c.req.valid("json"));
		return c.json(videoDetailView(await requireVideo(db, id, [row.workspaceId])), 200);
	});
