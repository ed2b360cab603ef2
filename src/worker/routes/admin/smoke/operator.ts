/** Who may run the smoke check (the operator's secret, rate-limited first) and which run a path names. */
import type { Context } from "hono";
import type { AppEnv } from "../../../env";
import { ApiError } from "../../../errors";
import { hmacSha256, timingSafeEqual } from "../../../services/crypto";

/** The shortest OPERATOR_SECRET the route accepts (`openssl rand -base64 48` gives 64). */
export const MIN_OPERATOR_SECRET_LENGTH = 32;
const RUN_ID = /^[a-z0-9]{12,40}$/;

const operatorSecret = (env: Env): string | null => {
	const secret = env.OPERATOR_SECRET;
	return secret && secret.length >= MIN_OPERATOR_SECRET_LENGTH ? secret : null;
};

/** The route exists only with the secret set; the caller must be rate-limited, then hold it. */
export async function requireOperator(c: Context<AppEnv>): Promise<void> {
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

export const runIdOf = (c: Context<AppEnv>) => {
	const runId = c.req.param("runId") ?? "";
	if (!RUN_ID.test(runId)) throw new ApiError("not_found", "No such smoke run.");
	return runId;
};
