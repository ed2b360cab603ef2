/**
 * Writes that carry a body must say it is JSON. Without this, a JSON body sent as text/plain
 * would skip validation (the validator only reads JSON content types) and reach a handler unchecked.
 * A write without a body (e.g. rotating a secret) needs no Content-Type: there is nothing to skip,
 * and a route that requires a body still validates the missing one (400).
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";

const WRITES = new Set(["POST", "PUT", "PATCH"]);

/** Mounted after authentication, so an unauthenticated caller hears 401 first. */
export const requireJson = createMiddleware<AppEnv>(async (c, next) => {
	// An HTTP client's bodiless POST (Node's fetch, a browser's) says `Content-Length: 0` and no type, and workerd then gives it an empty body: nothing to skip either.
	const bodiless = c.req.header("content-length") === "0" && !c.req.header("content-type");
	if (WRITES.has(c.req.method) && c.req.raw.body !== null && !bodiless) {
		const type = c.req.header("content-type") ?? "";
		if (!/^application\/json\s*(;|$)/i.test(type)) {
			throw new ApiError("invalid_request", "Send the body as JSON with `Content-Type: application/json`.", [
				{
					path: "Content-Type",
					message: `expected application/json, got ${JSON.stringify(type.slice(0, 100))}`,
				},
			]);
		}
	}
	await next();
});
