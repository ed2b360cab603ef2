/**
 * POST /api/videos/{id}/reprocess: new analysis and rendering settings for a finished video (analyzing
 * and generating_clips again, from the stored source and transcript).
 */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import { ReprocessConfigInput } from "../../../domain/reprocess";
import type { Api } from "../../../env";
import { withIdempotency } from "../../../services/idempotency";
import { reprocessVideo } from "../../../services/reprocess-video";
import { BEARER_OR_SESSION, errorResponses, jsonBody, jsonOk } from "../../openapi";
import { CHARGING, Reprocess, reprocessView } from "./reprocess-view";
import { VideoDetail, VideoId } from "./schemas";
import { requireVideo, videoDetailView } from "./views";

export const ReprocessBody = z.strictObject({ config: ReprocessConfigInput.optional() }).openapi("ReprocessVideo");

const ReprocessResponse = z
	.object({ message: z.string(), video: VideoDetail, reprocess: Reprocess })
	.openapi("ReprocessResponse");

const reprocessRoute = createRoute({
	method: "post",
	path: "/videos/{id}/reprocess",
	tags: ["videos"],
	summary: "Regenerate a finished video's clips with new settings (no new download or transcription)",
	description: `Runs analyzing and generating_clips again with the video's config changed by \`config\` (any field; the others stay), from the stored source and transcript. The video goes back to \`analyzing\` (progress from 55%), then \`generating_clips\` and \`completed\`, as a new video would; its previous clips are listed until the new ones are all rendered, then replaced. If it fails, the video ends \`failed\` with its previous clips and config, and the reprocess is refunded. ${CHARGING} The language and the transcribed time frame cannot change (a new transcription would be needed).`,
	security: BEARER_OR_SESSION,
	request: {
		params: z.object({ id: VideoId }),
		body: jsonBody(ReprocessBody),
		headers: z.object({
			"idempotency-key": z.string().optional().openapi({
				description:
					"Same key and body within 24 h → the first response again, charged once; same key, other body → 409.",
			}),
		}),
	},
	responses: {
		202: jsonOk(ReprocessResponse, "Reprocessing started; minutes charged if it is not a free one."),
		...errorResponses(400, 401, 402, 403, 404, 409, 410),
	},
});

export function registerReprocess(api: Api) {
	api.openapi(reprocessRoute, async (c) => {
		const { id } = c.req.valid("param");
		const body = c.req.valid("json");
		const db = getDb(c.env);
		const video = await requireVideo(db, id, c.get("principal").workspaceIds);
		const outcome = await withIdempotency(
			db,
			video.workspaceId,
			c.req.header("idempotency-key"),
			{ reprocess: id, body },
			async () => {
				const reprocess = await reprocessVideo(c.env, db, video, body.config);
				const cost = reprocess.minutesCharged > 0 ? `${reprocess.minutesCharged} minute(s) charged` : "free";
				const response: z.infer<typeof ReprocessResponse> = {
					message: `Reprocessing started (${cost}); the clips are replaced once the new ones are rendered.`,
					video: videoDetailView(await requireVideo(db, id, [video.workspaceId])),
					reprocess: reprocessView(reprocess),
				};
				return { status: 202, body: response };
			},
		);
		if (outcome.replayed) c.header("Idempotent-Replayed", "true");
		return c.json(outcome.body as z.infer<typeof ReprocessResponse>, 202);
	});
}
