/**
 * GET /api/videos/{id}/clips: the rendered clips, best first, with freshly signed URLs; filters and
 * order as the seed's service documents them (`minScore`, `maxScore`, `status`, `favorited`,
 * `sortBy`, `sortOrder`), and the seed's own `sort=score|time` still works.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { CLIP_API_STATUSES, CLIP_SORT_FIELDS, SORT_ORDERS } from "@clipforge/domain";
import { listClips, type ClipFilter } from "../../../db/clips";
import { getDb } from "../../../db/client";
import type { Api } from "../../../env";
import { ApiError } from "../../../errors";
import { decodeCursor, encodeCursor } from "../../../services/cursor";
import { BEARER_OR_SESSION, errorResponses, jsonOk } from "../../openapi";
import { ClipsResponse, VideoId } from "./schemas";
import { clipView, requireVideo } from "./views";

const Bool = z.enum(["true", "false"]).transform((v) => v === "true");

/** The filters of a clip list (also what exports of a clip set accept). */
export const ClipFilterQuery = z.object({
	minScore: z.coerce.number().min(0).max(100).optional(),
	maxScore: z.coerce.number().min(0).max(100).optional(),
	status: z.enum(CLIP_API_STATUSES).optional().openapi({
		description:
			"Only clips in this status; by default the ones with a file (`completed`, and `generating` while an edit renders them again).",
	}),
	favorited: Bool.optional().openapi({ type: "string", enum: ["true", "false"] }),
	sortBy: z.enum(CLIP_SORT_FIELDS).optional().openapi({ description: "`score` by default." }),
	sortOrder: z.enum(SORT_ORDERS).optional().openapi({ description: "`desc` by default." }),
	sort: z.enum(["score", "time"]).optional().openapi({
		description:
			"The seed's order: `score` (best first) or `time` (earliest first); `sortBy`/`sortOrder` win when given.",
	}),
});

/** The query's filter with defaults filled: `sort=time` is `sortBy=startTime&sortOrder=asc`. */
export function clipFilterOf(query: z.infer<typeof ClipFilterQuery>): ClipFilter {
	if (query.minScore !== undefined && query.maxScore !== undefined && query.minScore > query.maxScore) {
		throw new ApiError("invalid_request", "The request is invalid.", [
			{ path: "maxScore", message: "must be at least minScore" },
		]);
	}
	const legacyTime = query.sort === "time" && !query.sortBy;
	return {
		minScore: query.minScore,
		maxScore: query.maxScore,
		status: query.status,
		favorited: query.favorited,
		sortBy: query.sortBy ?? (legacyTime ? "startTime" : "score"),
		sortOrder: query.sortOrder ?? (legacyTime ? "asc" : "desc"),
	};
}

const clipsRoute = createRoute({
	method: "get",
	path: "/videos/{id}/clips",
	tags: ["clips"],
	summary: "List the clips of a video, best first, with signed URLs valid one hour",
	security: BEARER_OR_SESSION,
	request: {
		params: z.object({ id: VideoId }),
		query: ClipFilterQuery.extend({
			limit: z.coerce.number().int().min(1).max(100).default(100),
			cursor: z.string().max(200).optional(),
		}),
	},
	responses: {
		200: jsonOk(
			ClipsResponse,
			"Clips (empty until the video is completed; after a failed reprocess, the previous clips).",
		),
		...errorResponses(400, 401, 404),
	},
});

export const registerClips = (api: Api) =>
	api.openapi(clipsRoute, async (c) => {
		const { id } = c.req.valid("param");
		const query = c.req.valid("query");
		const offset =
			decodeCursor(
				query.cursor,
				(v): v is { o: number } => typeof (v as { o?: unknown })?.o === "number" && (v as { o: number }).o >= 0,
			)?.o ?? 0;
		const db = getDb(c.env);
		const row = await requireVideo(db, id, c.get("principal").workspaceIds);
		const filter = clipFilterOf(query);
		// A failed video has no clips, unless a reprocess of it failed: then it keeps its previous ones.
		const listed = row.status === "completed" || row.status === "failed";
		const rows = listed ? await listClips(db, id, filter, { limit: query.limit + 1, offset }) : [];
		const page = rows.slice(0, query.limit);
		const origin = new URL(c.req.url).origin;
		const list = await Promise.all(page.map((clip) => clipView(c.env, origin, clip)));
		const nextCursor = rows.length > query.limit ? encodeCursor({ o: offset + query.limit }) : null;
		// The URLs are signed per call: no cache may keep this answer.
		c.header("Cache-Control", "no-store");
		const filters = {
			minScore: filter.minScore ?? null,
			maxScore: filter.maxScore ?? null,
			status: filter.status ?? null,
			favorited: filter.favorited ?? null,
			sortBy: filter.sortBy,
			sortOrder: filter.sortOrder,
		};
		return c.json({ videoId: id, status: row.status, clips: list, count: list.length, nextCursor, filters }, 200);
	});
