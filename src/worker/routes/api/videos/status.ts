/** GET /api/videos/{id}/status: stage and progress (poll every 10-15 s). */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import { findVideoStatus, type VideoStatusRow } from "../../../db/videos";
import { ApiError } from "../../../errors";
import type { Api } from "../../../env";
import { addTiming, timed } from "../../../middleware/server-timing";
import { etagOf, holds, notModified, setRevalidate } from "../../conditional";
import { BEARER_OR_SESSION, errorResponses, jsonOk } from "../../openapi";
import { VideoId, VideoStatusResponse } from "./schemas";
import { StatusCache, statusMaxAgeMs } from "./status-cache";
import { videoStatusView } from "./views";

/**
 * This isolate's status reads (status-cache.ts): one D1 read answers the polls of a video for up to
 * STATUS_MAX_AGE_MS while it is processing; a settled one's is read each time.
 */
const reads = new StatusCache<VideoStatusRow>((row) => !SETTLED.has(row.status));
const SETTLED = new Set<string>(["completed", "failed"]);

const statusRoute = createRoute({
	method: "get",
	path: "/videos/{id}/status",
	tags: ["videos"],
	summary:
		"Processing status and progress (poll every 10-15 s; send the last ETag as If-None-Match to get 304 while nothing changed)",
	security: BEARER_OR_SESSION,
	request: { params: z.object({ id: VideoId }) },
	responses: {
		200: jsonOk(VideoStatusResponse, "Current status, with an ETag."),
		...notModified,
		...errorResponses(401, 404),
	},
});

/**
 * The poll clients repeat: at most one D1 read (the row's status columns and its place in line, in
 * one query), shared by the polls of the video in this isolate for up to STATUS_MAX_AGE_MS (2 s:
 * status-cache.ts), the key verified from the edge cache (services/key-cache.ts), the rate limiter
 * asked while the read runs (middleware/rate-limit.ts), and 304 with no body while nothing changed.
 */
export const registerStatus = (api: Api) =>
	api.openapi(statusRoute, async (c) => {
		const { id } = c.req.valid("param");
		const { workspaceIds } = c.get("principal");
		const maxAgeMs = statusMaxAgeMs(c.env.STATUS_MAX_AGE_MS);
		// Keyed by the workspaces too: a row is only ever shared with a caller the query would have given it to.
		const read = reads.get(`${id} ${workspaceIds.join(",")}`, maxAgeMs, () =>
			findVideoStatus(getDb(c.env), id, workspaceIds),
		);
		const row = await timed(c, "d1", read);
		if (!row) throw new ApiError("not_found", `Video ${id} was not found.`);
		const started = performance.now();
		const body = videoStatusView(row, row.queuePosition);
		const etag = etagOf(body);
		addTiming(c, "view", performance.now() - started);
		setRevalidate(c, etag);
		if (holds(c, etag)) return c.body(null, 304);
		return c.json(body, 200);
	});
