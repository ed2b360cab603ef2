/**
 * A request body limit on every route (hono/body-limit), before authentication, so an oversized
 * body costs no D1 read, no password hash and no parsing: 413 `payload_too_large` in the one error
 * body. JSON bodies are small (the largest, a submission with a 2000-character prompt, is a few
 * KB). The one exception is the render tier's PUT of a signed `/internal/objects` URL (sources,
 * clips, or one part of them), which must declare its Content-Length (so nothing is buffered to
 * count it) within MAX_OBJECT_BYTES, the smallest request body a zone's edge lets through; and a
 * part of a user's upload (`PUT /api/uploads/:id/parts/:n`), at most
 * UPLOAD_LIMITS.maxPartBytes and also with its Content-Length.
 */
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { OBJECT_UPLOAD_LIMITS } from "@clipforge/contract";
import { UPLOAD_LIMITS } from "../domain/upload-limits";
import { ApiError } from "../errors";

/** Every route but the internal object uploads. */
export const MAX_BODY_BYTES = 64 * 1024;
/**
 * One PUT of the render tier: a whole object or one part of a larger one. The edge refuses larger
 * bodies on Free and Pro zones (100 MB), so the local stack refuses them too.
 */
export const MAX_OBJECT_BYTES = OBJECT_UPLOAD_LIMITS.zoneBodyBytes;

const tooLarge = (limit: number) => () => {
	throw new ApiError("payload_too_large", `The request body is larger than ${limit} bytes.`, { maxBytes: limit });
};

const small: MiddlewareHandler<AppEnv> = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: tooLarge(MAX_BODY_BYTES) });
const objects: MiddlewareHandler<AppEnv> = bodyLimit({
	maxSize: MAX_OBJECT_BYTES,
	onError: tooLarge(MAX_OBJECT_BYTES),
});
const uploadParts: MiddlewareHandler<AppEnv> = bodyLimit({
	maxSize: UPLOAD_LIMITS.maxPartBytes,
	onError: tooLarge(UPLOAD_LIMITS.maxPartBytes),
});
const UPLOAD_PART_PATH = /^\/api\/uploads\/[^/]+\/parts\/[^/]+$/;

const needsLength = (c: Parameters<MiddlewareHandler<AppEnv>>[0]) => {
	// Counting a body without a declared length would mean holding it in memory.
	if (!c.req.header("content-length") || c.req.header("transfer-encoding"))
		throw new ApiError("invalid_request", "PUT needs a Content-Length.");
};

export const limitBodies = createMiddleware<AppEnv>(async (c, next) => {
	if (!c.req.raw.body) return next();
	if (c.req.method === "PUT" && c.req.path.startsWith("/internal/objects/")) {
		needsLength(c);
		return objects(c, next);
	}
	if (c.req.method === "PUT" && UPLOAD_PART_PATH.test(c.req.path)) {
		needsLength(c);
		return uploadParts(c, next);
	}
	return small(c, next);
});
