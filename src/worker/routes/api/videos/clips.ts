/** GET /api/videos/{id}/clips: the rendered clips, best first, with freshly signed URLs. */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import { listRenderedClips } from "../../../db/videos";
import type { Api } from "../../../env";
import { decodeCursor, encodeCursor } from "../../../services/cursor";
import { BEARER_OR_SESSION, errorResponses, jsonOk } from "../../openapi";
import { ClipsResponse, VideoId } from "./schemas";
import { clipView, loadVideo } from "./views";

const clipsRoute = createRoute({
	method: "get",
	path: "/videos/{id}/clips",
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
	responses: { 200: jsonOk(ClipsResponse, "Clips (empty until the video is completed; after a failed reprocess, the previous clips)."), ...errorResponses(400, 401, 404) },
});

export const registerClips = (api: Api) => api.openapi(clipsRoute, async (c) => {
	const { id } = c.req.valid("param");
	const query = c.req.valid("query");
	const offset = decodeCursor(query.cursor, (v): v is { o: number } => typeof (v as { o?: unknown })?.o === "number" && (v as { o: number }).o >= 0)?.o ?? 0;
	const db = getDb(c.env);
	const row = await loadVideo(db, id, c.get("principal").workspaceIds);
	// A failed video has no clips, unless a reprocess of it failed: then it keeps its previous ones.
	const listed = row.status === "completed" || row.status === "failed";
	const rows = listed ? await listRenderedClips(db, id, { minScore: query.minScore, sort: query.sort, limit: query.limit + 1, offset }) : [];
	const page = rows.slice(0, query.limit);
	const origin = new URL(c.req.url).origin;
	const list = await Promise.all(page.map((clip) => clipView(c.env, origin, clip)));
	const nextCursor = rows.length > query.limit ? encodeCursor({ o: offset + query.limit }) : null;
	// The URLs are signed per call: no cache may keep this answer.
	c.header("Cache-Control", "no-store");
	return c.json({ videoId: id, status: row.status, clips: list, count: list.length, nextCursor }, 200);
});
