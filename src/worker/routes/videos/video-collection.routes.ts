/** GET /api/videos (list, newest first, cursor pagination) and DELETE /api/videos/:id. */
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { and, desc, eq, inArray, lt, or, type SQL } from "drizzle-orm";
import { getDb } from "../../db/client";
import { clips, videoEvents, videos, webhookDeliveries } from "../../db/schema";
import { VIDEO_STATUSES } from "../../domain/video-status";
import type { AppEnv } from "../../env";
import { handleZodError } from "../../errors";
import { workspaceScope } from "../../middleware/auth";
import { decodeCursor, encodeCursor } from "../../services/cursor";
import { refundVideo } from "../../services/minutes";
import { r2Keys } from "../../services/r2-keys";
import { deletePrefixes } from "../../services/video-cleanup";
import { BEARER_OR_SESSION, errorResponses, jsonOk } from "../openapi";
import { loadVideo } from "./videos.routes";
import { videoDetailView } from "./video-view";
import { VideoDetail, VideoId } from "./videos.schemas";

const ListQuery = z.object({
	status: z.enum(VIDEO_STATUSES).optional(),
	projectId: z.string().min(1).max(64).optional(),
	workspaceId: z.string().min(1).max(64).optional(),
	limit: z.coerce.number().int().min(1).max(100).default(20),
	cursor: z.string().max(500).optional(),
});

const listRoute = createRoute({
	method: "get",
	path: "/",
	tags: ["videos"],
	summary: "List videos, newest first; filter by status or project; `nextCursor` pages on",
	security: BEARER_OR_SESSION,
	request: { query: ListQuery },
	responses: {
		200: jsonOk(z.object({ videos: z.array(VideoDetail), nextCursor: z.string().nullable() }).openapi("VideoList"), "A page of videos."),
		...errorResponses(400, 401, 403),
	},
});

const deleteRoute = createRoute({
	method: "delete",
	path: "/{id}",
	tags: ["videos"],
	summary: "Delete a video: stops its processing, refunds it unless it finished, deletes its files",
	security: BEARER_OR_SESSION,
	request: { params: z.object({ id: VideoId }) },
	responses: {
		200: jsonOk(z.object({ id: z.string(), deleted: z.literal(true), minutesRefunded: z.number().int() }).openapi("DeletedVideo"), "Deleted."),
		...errorResponses(401, 404),
	},
});

const isCursor = (v: unknown): v is { c: string; i: string } =>
	typeof v === "object" && v !== null && typeof (v as { c: unknown }).c === "string" && typeof (v as { i: unknown }).i === "string";

export const videoCollectionRoutes = new OpenAPIHono<AppEnv>({ defaultHook: handleZodError })
	.openapi(listRoute, async (c) => {
		const query = c.req.valid("query");
		const principal = c.get("principal");
		const cursor = decodeCursor(query.cursor, isCursor);
		const filters: SQL[] = [inArray(videos.workspaceId, workspaceScope(principal, query.workspaceId))];
		if (query.status) filters.push(eq(videos.status, query.status));
		if (query.projectId) filters.push(eq(videos.projectId, query.projectId));
		if (cursor) filters.push(or(lt(videos.createdAt, cursor.c), and(eq(videos.createdAt, cursor.c), lt(videos.id, cursor.i)))!);
		const rows = await getDb(c.env)
			.select()
			.from(videos)
			.where(and(...filters))
			.orderBy(desc(videos.createdAt), desc(videos.id))
			.limit(query.limit + 1)
			.all();
		const page = rows.slice(0, query.limit);
		const last = page[page.length - 1];
		return c.json({ videos: page.map(videoDetailView), nextCursor: rows.length > query.limit && last ? encodeCursor({ c: last.createdAt, i: last.id }) : null }, 200);
	})
	.openapi(deleteRoute, async (c) => {
		const { id } = c.req.valid("param");
		const db = getDb(c.env);
		const video = await loadVideo(db, id, c.get("principal").workspaceIds);
		if (video.status !== "pending_config" && video.status !== "completed" && video.status !== "failed") {
			await terminateWorkflow(c.env, id);
		}
		// Everything not delivered is given back; a failed video was refunded already (refunds happen once).
		const minutesRefunded = video.status === "completed" ? 0 : await refundVideo(c.env.DB, id, "video deleted before it finished");
		await deletePrefixes(c.env.MEDIA, r2Keys.videoPrefixes(id));
		await db.batch([
			db.delete(clips).where(eq(clips.videoId, id)),
			db.delete(videoEvents).where(eq(videoEvents.videoId, id)),
			db.delete(webhookDeliveries).where(eq(webhookDeliveries.videoId, id)),
			db.delete(videos).where(eq(videos.id, id)),
		]);
		return c.json({ id, deleted: true as const, minutesRefunded }, 200);
	});

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
