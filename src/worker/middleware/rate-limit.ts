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
import { READ_LIMIT, ReadVerdicts } from "./read-verdicts";
import { timed } from "./server-timing";

const PERIOD_SECONDS = 60;

/** This isolate's knowledge of which keys are well within their read limit (read-verdicts.ts). */
const readVerdicts = new ReadVerdicts(READ_LIMIT.reads, READ_LIMIT.periodSeconds * 1000);

/** Whom a request is counted against. */
export function limitKey(principal: Principal): string {
	return principal.kind === "api_key" ? `ws:${principal.workspaceIds[0]}` : `user:${principal.userId}`;
}

/** Counts one request of the caller's; the promise answers whether it is within the limit. */
function count(c: Context<AppEnv>, kind: "read" | "write"): Promise<{ success: boolean }> {
	const limiter = kind === "read" ? c.env.READ_LIMITER : c.env.WRITE_LIMITER;
	return limiter.limit({ key: limitKey(c.get("principal")) });
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
		if (!(await count(c, kind)).success) throw refusal(c, kind);
		await next();
	});

export const rateLimit = createMiddleware<AppEnv>(async (c, next) => {
	const isRead = c.req.method === "GET" || c.req.method === "HEAD";
	if (!isRead) return countAs("write")(c, next);
	// A read changes nothing, so it runs while the limiter answers (one round trip less on every
	// status poll); over the limit, its result is dropped and the answer is the 429.
	const key = limitKey(c.get("principal"));
	const answerFirst = readVerdicts.count(key);
	const verdict = timed(
		c,
		"limiter",
		count(c, "read").then((v) => {
			readVerdicts.record(key, v.success);
			return v;
		}),
	);
	// Well within its limit (read-verdicts.ts): answered without waiting; the count still lands.
	if (answerFirst) {
		c.executionCtx.waitUntil(verdict.catch(() => undefined));
		return next();
	}
	let failure: unknown = null;
	await next().catch((error: unknown) => {
		failure = error;
	});
	if (!(await timed(c, "limiter-wait", verdict)).success) throw refusal(c, "read");
	if (failure) throw failure;
});
