/**
 * DELETE /api/videos/{id}: stops processing, refunds only while nothing was delivered (up to
 * `transcribing`), deletes its rows and files.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import { deleteVideoSettled } from "../../../db/videos";
import { ApiError } from "../../../errors";
import { requestLog } from "../../../request-log";
import type { Logger } from "../../../lib/log";
import type { Api } from "../../../env";
import { wakeWaiting } from "../../../services/processing-slots";
import { r2Keys } from "../../../services/r2-keys";
import { refundReprocessOnDelete } from "../../../services/reprocess-state";
import { deletePrefixes } from "../../../services/video-cleanup";
import { BEARER_OR_SESSION, errorResponses, jsonOk } from "../../openapi";
import { VideoId } from "./schemas";
import { requireVideo } from "./views";

const deleteRoute = createRoute({
	method: "delete",
	path: "/videos/{id}",
	tags: ["videos"],
	summary: "Delete a video: stops its processing, refunds it only if nothing was delivered yet, deletes its files",
	description:
		"Refunds the whole charge while the video is `pending_config`, `downloading`, `uploading` or `transcribing` (nothing delivered yet). " +
		"Past `transcribing` (`analyzing`, `generating_clips`, `completed`) the charge stays: the work was done. A `failed` video was refunded when it failed, " +
		"unless the failure was caused by the workspace (e.g. deleting the split-screen background it used), which keeps the charge. " +
		"The status change and the refund are one guarded write, so a video that completes meanwhile is never refunded; of concurrent DELETEs one answers 200, the others 404.",
	security: BEARER_OR_SESSION,
	request: { params: z.object({ id: VideoId }) },
	responses: {
		200: jsonOk(
			z
				.object({ id: z.string(), deleted: z.literal(true), minutesRefunded: z.number().int() })
				.openapi("DeletedVideo"),
			"Deleted.",
		),
		...errorResponses(401, 404),
	},
});

export function registerDeleteVideo(api: Api) {
	api.openapi(deleteRoute, async (c) => {
		const { id } = c.req.valid("param");
		const db = getDb(c.env);
		const video = await requireVideo(db, id, c.get("principal").workspaceIds);
		// A reprocessed video's own charge was delivered: only a reprocess still running is refunded (and stopped).
		const reprocessRefund = await refundReprocessOnDelete(c.env, db, id);
		if (
			reprocessRefund === null &&
			video.status !== "pending_config" &&
			video.status !== "completed" &&
			video.status !== "failed"
		) {
			await terminateWorkflow(c.env, id, requestLog(c, { videoId: id }));
		}
		// Status, refund and rows in one guarded batch: only a video still before `analyzing` is refunded.
		const settled = await deleteVideoSettled(db, id, video.minutesCharged);
		if (!settled) throw new ApiError("not_found", `Video ${id} was not found.`);
		await deletePrefixes(c.env.MEDIA, r2Keys.videoPrefixes(id));
		// A processing slot of the workspace may have come free.
		c.executionCtx.waitUntil(wakeWaiting(c.env, db, video.workspaceId));
		return c.json(
			{ id, deleted: true as const, minutesRefunded: (reprocessRefund ?? 0) + settled.minutesRefunded },
			200,
		);
	});
}

async function terminateWorkflow(env: Env, videoId: string, log: Logger): Promise<void> {
	try {
		const instance = await env.PROCESS_VIDEO.get(videoId);
		const { status } = await instance.status();
		if (status !== "complete" && status !== "errored" && status !== "terminated") await instance.terminate();
	} catch (error) {
		// No instance (never started) or already gone: nothing left to stop.
		log.warn("terminate_workflow_failed", { error });
	}
}
