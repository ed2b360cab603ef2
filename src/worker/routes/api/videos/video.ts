/** GET and DELETE /api/videos/{id}: the full record; deleting stops processing, refunds unless it finished, deletes its files. */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import { refundVideo } from "../../../db/ledger";
import { deleteVideoRows } from "../../../db/videos";
import type { Api } from "../../../env";
import { r2Keys } from "../../../services/r2-keys";
import { refundReprocessOnDelete } from "../../../services/reprocess-state";
import { deletePrefixes } from "../../../services/video-cleanup";
import { BEARER_OR_SESSION, errorResponses, jsonOk } from "../../openapi";
import { VideoDetail, VideoId } from "./schemas";
import { loadVideo, videoDetailView } from "./views";

const detailRoute = createRoute({
	method: "get",
	path: "/videos/{id}",
	tags: ["videos"],
	summary: "The full video record",
	security: BEARER_OR_SESSION,
	request: { params: z.object({ id: VideoId }) },
	responses: { 200: jsonOk(VideoDetail, "The video."), ...errorResponses(401, 404) },
});

const deleteRoute = createRoute({
	method: "delete",
	path: "/videos/{id}",
	tags: ["videos"],
	summary: "Delete a video: stops its processing, refunds it unless it finished, deletes its files",
	security: BEARER_OR_SESSION,
	request: { params: z.object({ id: VideoId }) },
	responses: {
		200: jsonOk(z.object({ id: z.string(), deleted: z.literal(true), minutesRefunded: z.number().int() }).openapi("DeletedVideo"), "Deleted."),
		...errorResponses(401, 404),
	},
});

export function registerVideo(api: Api) {
	api.openapi(detailRoute, async (c) => {
		const { id } = c.req.valid("param");
		return c.json(videoDetailView(await loadVideo(getDb(c.env), id, c.get("principal").workspaceIds)), 200);
	});
}

export function registerDeleteVideo(api: Api) {
	api.openapi(deleteRoute, async (c) => {
		const { id } = c.req.valid("param");
		const db = getDb(c.env);
		const video = await loadVideo(db, id, c.get("principal").workspaceIds);
		// A reprocessed video's own charge was delivered: only a reprocess still running is refunded (and stopped).
		const reprocessRefund = await refundReprocessOnDelete(c.env, db, id);
		if (reprocessRefund === null && video.status !== "pending_config" && video.status !== "completed" && video.status !== "failed") {
			await terminateWorkflow(c.env, id);
		}
		// Everything not delivered is given back; a failed video was refunded already (refunds happen once).
		const minutesRefunded = reprocessRefund ?? (video.status === "completed" ? 0 : await refundVideo(db, id, "video deleted before it finished"));
		await deletePrefixes(c.env.MEDIA, r2Keys.videoPrefixes(id));
		await deleteVideoRows(db, id);
		return c.json({ id, deleted: true as const, minutesRefunded }, 200);
	});
}

async function terminateWorkflow(env: Env, videoId: string): Promise<void> {
	try {
		const instance = await env.PROCESS_VIDEO.get(videoId);
		const { status } = await instance.status();
		if (status !== "complete" && status !== "errored" && status !== "terminated") await instance.terminate();
	} catch (error) {
		// No instance (never started) or already gone: nothing left to stop.
		console.warn(JSON.stringify({ videoId, event: "terminate workflow", error: (error as Error).message }));
	}
}
