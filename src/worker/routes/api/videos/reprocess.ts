/**
 * POST /api/videos/{id}/reprocess: new analysis and rendering settings for a finished video (analyzing
 * and generating_clips again, from the stored source and transcript); GET …/reprocesses: each one,
 * with what it cost, and what the next would cost.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import { countsTowardAllowance, reprocessesOf, type ReprocessRow } from "../../../db/reprocesses";
import { REPROCESS_STATUSES } from "@clipforge/domain";
import { FREE_REPROCESSES_PER_VIDEO, ReprocessConfigInput, reprocessCost } from "../../../domain/reprocess";
import { VideoConfigInput, type VideoConfig } from "../../../domain/video-config";
import type { Api } from "../../../env";
import { withIdempotency } from "../../../services/idempotency";
import { reprocessVideo } from "../../../services/reprocess-video";
import { BEARER_OR_SESSION, errorResponses, jsonBody, jsonOk } from "../../openapi";
import { VideoDetail, VideoId } from "./schemas";
import { requireVideo, videoDetailView } from "./views";

const CHARGING = `The first reprocess of a video is free (${FREE_REPROCESSES_PER_VIDEO} per video); each later one costs half the minutes of its time frame, rounded up (at least 1). A failed reprocess is refunded and does not count, unless the workspace caused the failure (deleting the split-screen background it draws): then its charge stays and it counts.`;

export const ReprocessBody = z.strictObject({ config: ReprocessConfigInput.optional() }).openapi("ReprocessVideo");

const Reprocess = z
	.object({
		id: z.string().openapi({ example: "vid_3kTq9bX2mZpQ-r1" }),
		videoId: z.string(),
		number: z.number().int().openapi({ description: "1 for the video's first reprocess." }),
		status: z.enum(REPROCESS_STATUSES),
		config: VideoConfigInput,
		minutesCharged: z.number().int().openapi({
			description:
				"0 for a free reprocess; refunded when it failed, unless the workspace caused the failure (errorMessage says so).",
		}),
		errorMessage: z.string().nullable(),
		clipsCount: z.number().int().nullable(),
		createdAt: z.string(),
		completedAt: z.string().nullable(),
	})
	.openapi("Reprocess");

const ReprocessResponse = z
	.object({ message: z.string(), video: VideoDetail, reprocess: Reprocess })
	.openapi("ReprocessResponse");

const ReprocessList = z
	.object({
		videoId: z.string(),
		reprocesses: z.array(Reprocess),
		next: z
			.object({ minutes: z.number().int(), freeReprocessesLeft: z.number().int(), rule: z.string() })
			.openapi({ description: "What a reprocess with the video's current time frame would cost now." }),
	})
	.openapi("ReprocessList");

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

const listRoute = createRoute({
	method: "get",
	path: "/videos/{id}/reprocesses",
	tags: ["videos"],
	summary: "The video's reprocesses, what each cost, and what the next would cost",
	security: BEARER_OR_SESSION,
	request: { params: z.object({ id: VideoId }) },
	responses: { 200: jsonOk(ReprocessList, "Oldest first."), ...errorResponses(401, 404) },
});

const reprocessView = (row: ReprocessRow): z.infer<typeof Reprocess> => ({
	id: row.id,
	videoId: row.videoId,
	number: row.number,
	status: row.status,
	config: row.config as VideoConfig,
	minutesCharged: row.minutesCharged,
	errorMessage: row.errorMessage,
	clipsCount: row.clipsCount,
	createdAt: row.createdAt,
	completedAt: row.completedAt,
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
