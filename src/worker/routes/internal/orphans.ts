/**
 * The operator's routes, never the API's (no workspace may see another's keys): each request must
 * be signed with the deployment's SIGNING_SECRET in the render protocol's HMAC scheme (method, path
 * and query, a timestamp within 5 minutes; packages/contract request-auth.ts). `npm run admin`
 * and the soak sign them.
 * - `GET /internal/orphans?minAgeMinutes=10`: the orphan report (services/orphans.ts);
 * - `GET /internal/audit`: rows, objects and the ledger checked against each other (services/audit.ts);
 * - `GET /internal/object-list?cursor=`: one page of the bucket's objects with their size, ETag,
 *   metadata: a deployed store's listing for a backup's manifest (a local backup, scripts/backup.ts,
 *   reads the simulator's store directly).
 */
import { verifyRenderRequest } from "@clipforge/contract";
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors";
import { auditStore } from "../../services/audit";
import { findOrphans } from "../../services/orphans";

export const ORPHANS_PATH = "/internal/orphans";

export const internalOperatorRoutes = new Hono<AppEnv>();

const signedByOperator = createMiddleware<AppEnv>(async (c, next) => {
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

internalOperatorRoutes.get("/orphans", signedByOperator, async (c) => {
	const minAge = Number(c.req.query("minAgeMinutes") ?? 10);
	if (!Number.isFinite(minAge) || minAge < 0)
		throw new ApiError("invalid_request", "minAgeMinutes must be a number ≥ 0.");
	return c.json(await findOrphans(c.env, { minAgeMinutes: minAge }));
});

internalOperatorRoutes.get("/audit", signedByOperator, async (c) => c.json(await auditStore(c.env)));

internalOperatorRoutes.get("/object-list", signedByOperator, async (c) => {
	const page = await c.env.MEDIA.list({
		cursor: c.req.query("cursor") || undefined,
		limit: 500,
		include: ["httpMetadata", "customMetadata"],
	});
	return c.json({
		objects: page.objects.map((o) => ({
			key: o.key,
			size: o.size,
			etag: o.etag,
			uploaded: o.uploaded.toISOString(),
			contentType: o.httpMetadata?.contentType ?? null,
			customMetadata: o.customMetadata ?? {},
		})),
		cursor: page.truncated ? page.cursor : null,
	});
});
