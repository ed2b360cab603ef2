/** GET /api/videos/{id}/reprocesses: each reprocess of the video, with what it cost, and what the next would cost. */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import { countsTowardAllowance, reprocessesOf } from "../../../db/reprocesses";
import { FREE_REPROCESSES_PER_VIDEO, reprocessCost } from "../../../domain/reprocess";
import { VideoConfigInput } from "../../../domain/video-config";
import type { Api } from "../../../env";
import { BEARER_OR_SESSION, errorResponses, jsonOk } from "../../openapi";
import { CHARGING, Reprocess, reprocessView } from "./reprocess-view";
import { VideoId } from "./schemas";
import { requireVideo } from "./views";

const ReprocessList = z
	.object({
		videoId: z.string(),
		reprocesses: z.array(Reprocess),
		next: z
			.object({ minutes: z.number().int(), freeReprocessesLeft: z.number().int(), rule: z.string() })
			.openapi({ description: "What a reprocess with the video's current time frame would cost now." }),
	})
	.openapi("ReprocessList");

const listRoute = createRoute({
	method: "get",
	path: "/videos/{id}/reprocesses",
	tags: ["videos"],
	summary: "The video's reprocesses, what each cost, and what the next would cost",
	security: BEARER_OR_SESSION,
	request: { params: z.object({ id: VideoId }) },
	responses: { 200: jsonOk(ReprocessList, "Oldest first."), ...errorResponses(401, 404) },
});

export function registerReprocessList(api: Api) {
	api.openapi(listRoute, async (c) => {
		const { id } = c.req.valid("param");
		const db = getDb(c.env);
		const video = await requireVideo(db, id, c.get("principal").workspaceIds);
		const rows = await reprocessesOf(db, id);
		const counted = rows.filter(countsTowardAllowance).length;
		const config = video.config ? VideoConfigInput.parse(video.config) : { timeframeStart: 0, timeframeEnd: null };
		return c.json(
			{
				videoId: id,
				reprocesses: rows.map(reprocessView),
				next: {
					minutes: reprocessCost(counted, config, video.duration),
					freeReprocessesLeft: Math.max(0, FREE_REPROCESSES_PER_VIDEO - counted),
					rule: CHARGING,
				},
			},
			200,
		);
	});
}
