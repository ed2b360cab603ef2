/**
 * Per-credential rate limits through the Workers rate-limiting bindings: writes (POST/PUT/DELETE)
 * and reads are counted apart, per API key or per signed-in user. Over the limit → 429
 * `rate_limited` with `Retry-After` (the binding's period: it does not say when the window ends).
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { timed } from "./server-timing";

const PERIOD_SECONDS = 60;

export const rateLimit = createMiddleware<AppEnv>(async (c, next) => {
	const principal = c.get("principal");
	const key = principal.kind === "api_key" ? `key:${principal.apiKeyId}` : `user:${principal.userId}`;
	const isRead = c.req.method === "GET" || c.req.method === "HEAD";
	const limiter = isRead ? c.env.READ_LIMITER : c.env.WRITE_LIMITER;
	const refuse = () => {
		c.header("Retry-After", String(PERIOD_SECONDS));
		return new ApiError(
			"rate_limited",
			`Too many ${isRead ? "reads" : "writes"} with these credentials; retry after ${PERIOD_SECONDS} s.`,
			{ retryAfter: PERIOD_SECONDS },
		);
	};
	if (!isRead) {
		if (!(await limiter.limit({ key })).success) throw refuse();
		await next();
		return;
	}
	// A read changes nothing, so it runs while the limiter answers (one round trip less on every
	// status poll); over the limit, its result is dropped and the answer is the 429.
	const verdict = timed(c, "limiter", limiter.limit({ key }));
	let failure: unknown = null;
	await next().catch((error: unknown) => {
		failure = error;
	});
	if (!(await timed(c, "limiter-wait", verdict)).success) throw refuse();
	if (failure) throw failure;
});
