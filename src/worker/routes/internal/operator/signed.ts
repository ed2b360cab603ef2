/**
 * Every operator route's check: the request is signed with the deployment's SIGNING_SECRET in the
 * render protocol's HMAC scheme (method, path and query, a timestamp within 5 minutes;
 * packages/contract request-auth.ts).
 */
import { verifyRenderRequest } from "@clipforge/contract";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../../../env";
import { ApiError } from "../../../errors";

export const signedByOperator = createMiddleware<AppEnv>(async (c, next) => {
	const secret = c.env.SIGNING_SECRET;
	if (!secret || secret.length < 32)
		throw new ApiError(
			"service_unavailable",
			"SIGNING_SECRET is not set: the operator's routes cannot be checked.",
		);
	const url = new URL(c.req.url);
	const verdict = await verifyRenderRequest(secret, c.req.header("authorization"), {
		method: c.req.method,
		path: url.pathname + url.search,
		body: "",
	});
	if (!verdict.ok)
		throw new ApiError(
			"unauthorized",
			`The request must be signed with the deployment's SIGNING_SECRET (the signature is ${verdict.reason}).`,
		);
	await next();
});
