/** GET /api/videos: newest first, filtered by status or project, paged by cursor. */
import { createRoute, z } from "@hono/zod-openapi";
import { clipCounts } from "../../../db/clips";
import { getDb } from "../../../db/client";
import { listVideos } from "../../../db/videos";
import { VIDEO_STATUSES } from "@clipforge/domain";
import type { Api } from "../../../env";
import { workspaceScope } from "../../../middleware/auth";
import { decodeCursor, encodeCursor } from "../../../services/cursor";
import { BEARER_OR_SESSION, errorResponses, jsonOk } from "../../openapi";
import { VideoDetail } from "./schemas";
import { videoDetailView } from "./views";

const ListQuery = z.object({
	status: z.enum(VIDEO_STATUSES).optional(),
	projectId: z.string().min(1).max(64).optional(),
	workspaceId: z.string().min(1).max(64).optional(),
	limit: z.coerce.number().int().min(1).max(100).default(20),
	cursor: z.string().max(500).optional(),
});

const listRoute = createRoute({
	method: "get",
	path: "/videos",
	tags: ["videos"],
	summary: "List videos, newest first; filter by status or project; `nextCursor` pages on",
	security: BEARER_OR_SESSION,
	request: { query: ListQuery },
	responses: {
		200: jsonOk(
			z.object({ videos: z.array(VideoDetail), nextCursor: z.string().nullable() }).openapi("VideoList"),
			"A page of videos.",
		),
		...errorResponses(400, 401, 403),
	},
});

const isCursor = (v: unknown): v is { c: string; i: string } =>
	typeof v === "object" &&
	v !== null &&
	typeof (v as { c: unknown }).c === "string" &&
	typeof (v as { i: unknown }).i === "string";

export const registerVideoList = (api: Api) =>
	api.openapi(listRoute, async (c) => {
		const query = c.req.valid("query");
		const cursor = decodeCursor(query.cursor, isCursor);
		const db = getDb(c.env);
		const rows = await listVideos(db, {
			workspaceIds: workspaceScope(c.get("principal"), query.workspaceId),
			status: query.status,
			projectId: query.projectId,
			after: cursor ? { createdAt: cursor.c, id: cursor.i } : null,
			limit: query.limit + 1,
		});
		const page = rows.slice(0, query.limit);
		const last = page[page.length - 1];
		const counts = await clipCounts(
			db,
			page.map((row) => row.id),
		);
		return c.json(
			{
				videos: page.map((row) => videoDetailView(row, counts.get(row.id))),
				nextCursor: rows.length > query.limit && last ? encodeCursor({ c: last.createdAt, i: last.id }) : null,
			},
			200,
		);
	});
