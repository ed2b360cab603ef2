/**
 * PUT /api/uploads/{id}/parts/{partNumber}?token=: one part's bytes. Public: its credential is the
 * upload's signed token (as an R2 presigned URL would be), and it is the one route whose body may
 * exceed 64 KiB (middleware/body-limit.ts).
 */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import type { Api } from "../../../env";
import { UPLOAD_LIMITS } from "../../../domain/upload-limits";
import { ApiError } from "../../../errors";
import { checkUploadToken } from "../../../services/signing";
import { putPart } from "../../../services/uploads";
import { errorResponses, jsonOk } from "../../openapi";
import { UploadId, UploadPart } from "./schemas";

export const PUBLIC_UPLOAD_PATHS = ["/uploads/:id/parts/:partNumber"];

const route = createRoute({
	method: "put",
	path: "/uploads/{id}/parts/{partNumber}",
	tags: ["uploads"],
	summary: "Store one part (the URL comes from partUrlTemplate)",
	description: `The body is the part's bytes, exactly \`partSize\` (the last part: the rest), with its Content-Length; at most ${UPLOAD_LIMITS.maxPartBytes} bytes. Sending a part again replaces it. At most ${UPLOAD_LIMITS.partWritesPerMinute} PUTs per upload per minute (429 with \`Retry-After\` beyond).`,
	request: {
		params: z.object({
			id: UploadId,
			partNumber: z.coerce
				.number()
				.int()
				.min(1)
				.max(UPLOAD_LIMITS.maxParts)
				.openapi({ param: { name: "partNumber", in: "path" } }),
		}),
		query: z.object({ token: z.string().min(1).max(200).openapi({ description: "From partUrlTemplate." }) }),
		body: {
			content: { "application/octet-stream": { schema: z.string().openapi({ format: "binary" }) } },
			required: true,
		},
	},
	responses: { 200: jsonOk(UploadPart, "Stored."), ...errorResponses(400, 403, 404, 409, 413, 429) },
});

export const registerUploadPart = (api: Api) =>
	api.openapi(route, async (c) => {
		const { id, partNumber } = c.req.valid("param");
		const verdict = await checkUploadToken(c.env, id, c.req.valid("query").token);
		if (verdict === "expired") throw new ApiError("url_expired", "This upload has expired; start a new one.");
		if (verdict !== "valid") throw new ApiError("forbidden", "This part URL is not valid.");
		if (!(await c.env.PART_LIMITER.limit({ key: `upload:${id}` })).success) {
			c.header("Retry-After", "60");
			throw new ApiError(
				"rate_limited",
				`More than ${UPLOAD_LIMITS.partWritesPerMinute} part PUTs to this upload in a minute; retry after 60 s.`,
				{ retryAfter: 60 },
			);
		}
		const length = Number(c.req.header("content-length"));
		const part = await putPart(
			c.env,
			getDb(c.env),
			id,
			partNumber,
			c.req.raw.body,
			Number.isFinite(length) ? length : -1,
		);
		return c.json({ partNumber: part.partNumber, size: part.size, etag: part.etag }, 200);
	});
