/**
 * Rate limits through the Workers rate-limiting bindings: writes (POST/PUT/DELETE) and reads are
 * counted apart, per workspace for API keys (minting more keys buys no more requests) and per person
 * for a signed-in user (people are invited by the workspace's managers, and the keys they may mint
 * are capped per workspace). Over the limit → 429 `rate_limited` with `Retry-After` (the binding's
 * period: it does not say when the window ends).
 */
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv, Principal } from "../env";
import { ApiError } from "../errors";
import { READ_BATCH, READ_LIMIT, ReadAllowances } from "./read-allowances";
import { timed } from "./server-timing";

const PERIOD_SECONDS = 60;

/** The reads this isolate has paid READ_LIMITER for, a batch per call (read-allowances.ts). */
const readAllowances = new ReadAllowances(READ_BATCH, READ_LIMIT.periodSeconds * 1000);

/** Whom a request is counted against. */
export function limitKey(principal: Principal): string {
	return principal.kind === "api_key" ? `ws:${principal.workspaceIds[0]}` : `user:${principal.userId}`;
}

/** Counts one write of the caller's; the promise answers whether it is within the limit. */
async function countWrite(c: Context<AppEnv>): Promise<boolean> {
	return (await c.env.WRITE_LIMITER.limit({ key: limitKey(c.get("principal")) })).success;
}

/** Takes one read of the caller's from what this isolate has paid READ_LIMITER for. */
function takeRead(c: Context<AppEnv>): true | Promise<boolean> {
	return readAllowances.take(limitKey(c.get("principal")), {
		pay: async (key) => (await c.env.READ_LIMITER.limit({ key })).success,
		inBackground: (payment) => c.executionCtx.waitUntil(payment),
	});
}

function refusal(c: Context<AppEnv>, kind: "read" | "write"): ApiError {
	const whose = c.get("principal").kind === "api_key" ? "this workspace's API keys" : "this account";
	c.header("Retry-After", String(PERIOD_SECONDS));
	return new ApiError("rate_limited", `Too many ${kind}s with ${whose}; retry after ${PERIOD_SECONDS} s.`, {
		retryAfter: PERIOD_SECONDS,
	});
}

/** A middleware that counts every request it sees as one `kind` (MCP counts each call as a read). */
export const countAs = (kind: "read" | "write") =>
	createMiddleware<AppEnv>(async (c, next) => {
		const allowed = kind === "write" ? await countWrite(c) : await takeRead(c);
		if (!allowed) throw refusal(c, kind);
		await next();
	});

export const rateLimit = createMiddleware<AppEnv>(async (c, next) => {
	const isRead = c.req.method === "GET" || c.req.method === "HEAD";
	if (!isRead) return countAs("write")(c, next);
	const take = takeRead(c);
	if (take === true) return next();
	// Nothing paid left: the read runs while the batch is paid for (a read changes nothing); refused,
	// its result is dropped and the answer is the 429.
	const verdict = timed(c, "limiter", take);
	let failure: unknown = null;
	await next().catch((error: unknown) => {
		failure = error;
	});
	if (!(await timed(c, "limiter-wait", verdict))) throw refusal(c, "read");
	if (failure) throw failure;
});
