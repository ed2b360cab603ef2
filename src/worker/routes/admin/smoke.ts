/**
 * `/admin/smoke`: the operator's check of a live deployment (`npm run smoke -- --url … --key …`).
 * Not a tenant route: it is outside `/api` (no API key, no session, not in the OpenAPI document)
 * and answers only a bearer token equal to the OPERATOR_SECRET secret, compared in constant time.
 * Without that secret (or with one under 32 characters) the route does not exist: 404 for anyone.
 * Every attempt, right or wrong, counts against the write limiter per client address first.
 *
 * - `POST /admin/smoke` → every binding checked (services/smoke/checks.ts) and a signed download to fetch;
 * - `GET /admin/smoke/:runId/download?token=…` → that object (the token is the signature, as for clip downloads);
 * - `DELETE /admin/smoke/:runId` → removes what the run stored (`{ removed, left: 0 }`).
 */
import { Hono, type Context } from "hono";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors";
import { hmacSha256, timingSafeEqual } from "../../services/crypto";
import { serveR2Object } from "../../services/serve-object";
import { checkSmokeDownloadToken } from "../../services/signing";
import { removeSmokeObjects, runSmokeChecks, smokePrefix } from "../../services/smoke/checks";

/** The shortest OPERATOR_SECRET the route accepts (`openssl rand -base64 48` gives 64). */
export const MIN_OPERATOR_SECRET_LENGTH = 32;
const RUN_ID = /^[a-z0-9]{12,40}$/;

export const smokeRoutes = new Hono<AppEnv>();

const operatorSecret = (env: Env): string | null => {
	const secret = env.OPERATOR_SECRET;
	return secret && secret.length >= MIN_OPERATOR_SECRET_LENGTH ? secret : null;
};

/** The route exists only with the secret set; the caller must be rate-limited, then hold it. */
async function requireOperator(c: Context<AppEnv>): Promise<void> {
	const secret = operatorSecret(c.env);
	if (!secret) throw new ApiError("not_found", `No route ${c.req.method} ${c.req.path}.`);
	const client = c.req.header("cf-connecting-ip") ?? "local";
	if (!(await c.env.WRITE_LIMITER.limit({ key: `operator:${client}` })).success)
		throw new ApiError("rate_limited", "Too many operator requests from this address; retry after 60 s.", {
			retryAfter: 60,
		});
	const given = /^Bearer (.+)$/.exec(c.req.header("authorization") ?? "")?.[1] ?? "";
	// Both sides hashed with a fresh key: equal lengths, and nothing learned from timing.
	const nonce = crypto.randomUUID();
	if (!timingSafeEqual(await hmacSha256(nonce, given), await hmacSha256(nonce, secret)))
		throw new ApiError("unauthorized", "The operator key is not valid.");
}

const runIdOf = (c: Context<AppEnv>) => {
	const runId = c.req.param("runId") ?? "";
	if (!RUN_ID.test(runId)) throw new ApiError("not_found", "No such smoke run.");
	return runId;
};

smokeRoutes.post("/smoke", async (c) => {
	await requireOperator(c);
	const runId = crypto.randomUUID().replaceAll("-", "");
	return c.json(await runSmokeChecks(c.env, new URL(c.req.url).origin, runId));
});

smokeRoutes.get("/smoke/:runId/download", async (c) => {
	const key = `${smokePrefix(runIdOf(c))}download.bin`;
	const verdict = await checkSmokeDownloadToken(c.env, key, c.req.query("token"));
	if (verdict === "expired") throw new ApiError("url_expired", "This link has expired.");
	if (verdict !== "valid") throw new ApiError("forbidden", "This link is not valid.");
	const response = await serveR2Object(c.env.MEDIA, key, c.req.raw, "smoke.bin");
	if (!response) throw new ApiError("not_found", "The smoke run's object is no longer stored.");
	return response;
});

smokeRoutes.delete("/smoke/:runId", async (c) => {
	await requireOperator(c);
	const prefix = smokePrefix(runIdOf(c));
	const removed = await removeSmokeObjects(c.env.MEDIA, prefix);
	const left = (await c.env.MEDIA.list({ prefix })).objects.length;
	return c.json({ removed, left });
});
