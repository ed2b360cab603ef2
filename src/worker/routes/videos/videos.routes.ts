import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { and, asc, desc, eq, gte, inArray } from "drizzle-orm";
import { getDb, type Db } from "../../db/client";
import { clips, videos } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError, handleZodError } from "../../errors";
import { resolveWorkspace } from "../../middleware/auth";
import { BEARER_OR_SESSION, errorResponses, jsonBody, jsonOk } from "../openapi";
import { decodeCursor, encodeCursor } from "../../services/cursor";
import { withIdempotency } from "../../services/idempotency";
import { createRenderClient } from "../../services/render-client";
import { startProcessing } from "../../services/start-processing";
import { resolveBackground } from "../../services/media-library";
import { assertTimeframeInside, submitHostedVideo } from "../../services/submit-video";
import { markFailedAndRefund } from "../../services/video-state";
import { VideoConfigInput } from "../../domain/video-config";
import { clipView, videoDetailView, videoInfoView, videoStatusView, videoView } from "./video-view";
import {
	ClipsResponse, SubmitHostedVideoBody, SubmitHostedVideoResponse, VideoDetail, VideoId, VideoStatusResponse,
} from "./videos.schemas";


const submitRoute = createRoute({
	method: "post",
	path: "/hosted",
	tags: ["videos"],
	summary: "Submit a hosted video URL for processing",
	security: BEARER_OR_SESSION,
	request: {
		body: jsonBody(SubmitHostedVideoBody),
		headers: z.object({
			"idempotency-key": z.string().optional().openapi({ description: "Same key and body within 24 h → the first response again, charged once; same key, other body → 409." }),
		}),
	},
	responses: { 201: jsonOk(SubmitHostedVideoResponse, "Video created; minutes charged."), ...errorResponses(400, 401, 402, 403, 404, 409, 413, 422, 503) },
});

const configRoute = createRoute({
	method: "put",
	path: "/{id}/config",
	tags: ["videos"],
	summary: "Supply the config of a pending_config video and start processing",
	security: BEARER_OR_SESSION,
	request: { params: z.object({ id: VideoId }), body: jsonBody(VideoConfigInput) },
	responses: { 200: jsonOk(VideoDetail, "Processing started."), ...errorResponses(400, 401, 404, 409) },
});

const statusRoute = createRoute({
	method: "get",
	path: "/{id}/status",
	tags: ["videos"],
	summary: "Processing status and progress (poll every 10-15 s)",
	security: BEARER_OR_SESSION,
	request: { params: z.object({ id: VideoId }) },
	responses: { 200: jsonOk(VideoStatusResponse, "Current status."), ...errorResponses(401, 404) },
});

const clipsRoute = createRoute({
	method: "get",
	path: "/{id}/clips",
	tags: ["clips"],
	summary: "List the clips of a video, best first, with signed URLs valid one hour",
	security: BEARER_OR_SESSION,
	request: {
		params: z.object({ id: VideoId }),
		query: z.object({
			minScore: z.coerce.number().min(0).max(100).optional(),
			sort: z.enum(["score", "time"]).default("score"),
			limit: z.coerce.number().int().min(1).max(100).default(100),
			cursor: z.string().max(200).optional(),
		}),
	},
	responses: { 200: jsonOk(ClipsResponse, "Clips (empty until the video is completed)."), ...errorResponses(400, 401, 404) },
});

const detailRoute = createRoute({
	method: "get",
	path: "/{id}",
	tags: ["videos"],
	summary: "The full video record",
	security: BEARER_OR_SESSION,
	request: { params: z.object({ id: VideoId }) },
	responses: { 200: jsonOk(VideoDetail, "The video."), ...errorResponses(401, 404) },
});

export const videoRoutes = new OpenAPIHono<AppEnv>({ defaultHook: handleZodError })
	.openapi(submitRoute, async (c) => {
		const body = c.req.valid("json");
		const workspaceId = resolveWorkspace(c.get("principal"), body.workspaceId);
		const db = getDb(c.env);
		const outcome = await withIdempotency(c.env.DB, workspaceId, c.req.header("idempotency-key"), body, async () => {
			const { videoId } = await submitHostedVideo(c.env, db, createRenderClient(c.env, "probe"), {
				workspaceId,
				hostedUrl: body.hostedUrl,
				config: body.config ?? null,
				projectId: body.projectId ?? null,
				webhookUrl: body.webhookUrl ?? null,
			});
			const row = await loadVideo(db, videoId, [workspaceId]);
			const response: z.infer<typeof SubmitHostedVideoResponse> = {
				message: body.config ? "Video submitted; processing has started." : "Video submitted; send its config to PUT /api/videos/{id}/config to start processing.",
				video: videoView(row),
				videoInfo: videoInfoView(row),
			};
			return { status: 201, body: response };
		});
		if (outcome.replayed) c.header("Idempotent-Replayed", "true");
		return c.json(outcome.body as z.infer<typeof SubmitHostedVideoResponse>, 201);
	})
	.openapi(configRoute, async (c) => {
		const { id } = c.req.valid("param");
		const config = c.req.valid("json");
		const db = getDb(c.env);
		const row = await loadVideo(db, id, c.get("principal").workspaceIds);
		if (row.status !== "pending_config") {
			throw new ApiError("conflict", `The video is ${row.status}; its config can only be set while it is pending_config.`);
		}
		assertTimeframeInside(config, row.duration);
		await resolveBackground(db, row.workspaceId, config, id);
		// Guarded on the status, so two concurrent PUTs cannot both start processing.
		const updated = await c.env.DB.prepare(
			`UPDATE videos SET config = ?2, status = 'downloading', started_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
			 WHERE id = ?1 AND status = 'pending_config'`,
		)
			.bind(id, JSON.stringify(config))
			.run();
		if (updated.meta.changes !== 1) throw new ApiError("conflict", "The video's config was set by another request.");
		await c.env.DB.prepare("INSERT INTO video_events (video_id, status) VALUES (?1, 'downloading')").bind(id).run();
		try {
			await startProcessing(c.env, id);
		} catch (error) {
			await markFailedAndRefund(c.env.DB, id, "Processing could not be started; the minutes were refunded.");
			throw error;
		}
		return c.json(videoDetailView(await loadVideo(db, id, [row.workspaceId])), 200);
	})
	.openapi(statusRoute, async (c) => {
		const { id } = c.req.valid("param");
		const row = await loadVideo(getDb(c.env), id, c.get("principal").workspaceIds);
		return c.json(videoStatusView(row), 200);
	})
	.openapi(clipsRoute, async (c) => {
		const { id } = c.req.valid("param");
		const query = c.req.valid("query");
		const offset = decodeCursor(query.cursor, (v): v is { o: number } => typeof (v as { o?: unknown })?.o === "number" && (v as { o: number }).o >= 0)?.o ?? 0;
		const db = getDb(c.env);
		const row = await loadVideo(db, id, c.get("principal").workspaceIds);
		const filters = [eq(clips.videoId, id), eq(clips.status, "completed")];
		if (query.minScore !== undefined) filters.push(gte(clips.score, query.minScore));
		const order = query.sort === "time" ? [asc(clips.startTime), asc(clips.position)] : [desc(clips.score), asc(clips.position)];
		const rows = row.status === "completed" ? await db.select().from(clips).where(and(...filters)).orderBy(...order).limit(query.limit + 1).offset(offset).all() : [];
		const page = rows.slice(0, query.limit);
		const origin = new URL(c.req.url).origin;
		const list = await Promise.all(page.map((clip) => clipView(c.env, origin, clip)));
		const nextCursor = rows.length > query.limit ? encodeCursor({ o: offset + query.limit }) : null;
		return c.json({ videoId: id, status: row.status, clips: list, count: list.length, nextCursor }, 200);
	})
	.openapi(detailRoute, async (c) => {
		const { id } = c.req.valid("param");
		return c.json(videoDetailView(await loadVideo(getDb(c.env), id, c.get("principal").workspaceIds)), 200);
	});

/** A video of one of these workspaces, or 404 (also for other workspaces' videos: never reveal they exist). */
export async function loadVideo(db: Db, id: string, workspaceIds: string[]) {
	const row = await db.select().from(videos).where(and(eq(videos.id, id), inArray(videos.workspaceId, workspaceIds))).get();
	if (!row) throw new ApiError("not_found", `Video ${id} was not found.`);
	return row;
}
