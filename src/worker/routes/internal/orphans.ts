/**
 * `GET /internal/orphans?minAgeMinutes=10`: the orphan report (services/orphans.ts), for the
 * operator only. Not an API route (no workspace may see another's keys): the request must be signed
 * with the deployment's SIGNING_SECRET in the render protocol's HMAC scheme (method, path and query,
 * a timestamp within 5 minutes; packages/contract request-auth.ts). `npm run admin -- orphans`
 * signs it.
 */
import { verifyRenderRequest } from "@clipforge/contract";
import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors";
import { findOrphans } from "../../services/orphans";

export const ORPHANS_PATH = "/internal/orphans";

export const internalOperatorRoutes = new Hono<AppEnv>();

internalOperatorRoutes.get("/orphans", async (c) => {
	const secret = c.env.SIGNING_SECRET;
	if (!secret || secret.length < 32)
		throw new ApiError(
			"service_unavailable",
			"SIGNING_SECRET is not set: the operator's routes cannot be checked.",
		);
	const url = new URL(c.req.url);
	const verdict = await verifyRenderRequest(secret, c.req.header("authorization"), {
		method: "GET",
		path: url.pathname + url.search,
		body: "",
	});
	if (!verdict.ok)
		throw new ApiError(
			"unauthorized",
			`The request must be signed with the deployment's SIGNING_SECRET (the signature is ${verdict.reason}).`,
		);
	const minAge = Number(c.req.query("minAgeMinutes") ?? 10);
	if (!Number.isFinite(minAge) || minAge < 0)
		throw new ApiError("invalid_request", "minAgeMinutes must be a number ≥ 0.");
	return c.json(await findOrphans(c.env, { minAgeMinutes: minAge }));
});
