/**
 * `/internal/objects/<key>`: how the render tier reads sources and writes outputs. Every request
 * carries an HMAC signature bound to the method, the key and an expiry (services/signing.ts). A
 * write is one PUT up to a zone's request body limit, or the steps of a multipart upload through
 * the same PUT signature (services/object-multipart.ts).
 */
import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors";
import { isMultipartRequest, multipartStep } from "../../services/object-multipart";
import { refusedWrite } from "../../services/orphans";
import { serveR2Object } from "../../services/serve-object";
import { checkInternalObjectSignature } from "../../services/signing";

export const internalObjectRoutes = new Hono<AppEnv>();

internalObjectRoutes.on(["GET", "HEAD", "PUT", "POST", "DELETE"], "/objects/*", async (c) => {
	const key = decodeURIComponent(c.req.path.replace(/^\/internal\/objects\//, ""));
	const multipart = isMultipartRequest(new URL(c.req.url));
	// Starting, completing and aborting a multipart upload are writes of the key: PUT's signature.
	const method = c.req.method === "HEAD" ? "GET" : multipart ? "PUT" : c.req.method;
	if (c.req.query("method") !== method) throw new ApiError("forbidden", "This URL is not signed for this method.");
	const verdict = await checkInternalObjectSignature(c.env, key, method, c.req.query("exp"), c.req.query("sig"));
	if (verdict === "expired") throw new ApiError("url_expired", "The signed URL has expired.");
	if (verdict !== "valid") throw new ApiError("forbidden", "The signature is not valid.");

	// A job that outlived what it writes for (a deleted or failed video, a replaced clip) stores
	// nothing, in one PUT or in parts; aborting a multipart upload only frees R2's parts, so it always may.
	const writes = method === "PUT" && !(multipart && c.req.method === "DELETE");
	const refused = writes ? await refusedWrite(c.env, key) : null;
	if (refused) throw new ApiError("conflict", `Nothing is stored at ${key} any more: ${refused}.`);
	if (multipart) return multipartStep(c.env.MEDIA, key, c.req.raw);
	if (c.req.method === "POST" || c.req.method === "DELETE")
		throw new ApiError("invalid_request", `${c.req.method} is only for the steps of a multipart upload.`);
	if (method === "PUT") {
		if (!c.req.raw.body) throw new ApiError("invalid_request", "PUT needs a body.");
		const length = Number(c.req.header("content-length"));
		if (!Number.isFinite(length) || length <= 0)
			throw new ApiError("invalid_request", "PUT needs a Content-Length.");
		const object = await c.env.MEDIA.put(key, c.req.raw.body, {
			httpMetadata: { contentType: c.req.header("content-type") ?? "application/octet-stream" },
		});
		return c.json({ key, size: object?.size ?? length }, 201);
	}
	const response = await serveR2Object(c.env.MEDIA, key, c.req.raw);
	if (!response) throw new ApiError("not_found", `No object at ${key}.`);
	return response;
});
