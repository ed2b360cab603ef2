/**
 * CSRF: a write made with the session cookie must come from the dashboard's own origin. SameSite=Lax
 * keeps the cookie off most cross-site requests, but not a same-site sibling's, and a bodiless POST
 * skips the JSON check (require-json.ts) that makes a cross-site form's body useless. So every
 * cookie-authenticated write (bodiless ones too) is refused when the browser says it comes from
 * elsewhere: an `Origin` other than this one, or `Sec-Fetch-Site` other than `same-origin`/`none`.
 * A request with neither header is not a browser's cross-site one (browsers send `Origin` on every
 * cross-origin write); API keys are not ambient credentials, so they are not checked.
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const SAME_SITE_FETCH = new Set(["same-origin", "none"]);

/** Whether a browser said this request comes from another origin. */
export function crossOrigin(request: Request): boolean {
	const origin = request.headers.get("origin");
	if (origin !== null && origin !== new URL(request.url).origin) return true;
	const site = request.headers.get("sec-fetch-site");
	return site !== null && !SAME_SITE_FETCH.has(site.toLowerCase());
}

/**
 * For the public cookie routes (sign-in, sign-out): a cross-site form must not sign a victim into
 * the attacker's account (login CSRF) nor out of their own.
 */
export const sameOriginOnly = createMiddleware<AppEnv>(async (c, next) => {
	if (crossOrigin(c.req.raw))
		throw new ApiError(
			"forbidden",
			"Sign in and out from this site (the request's Origin or Sec-Fetch-Site says otherwise).",
		);
	await next();
});

/** Mounted after authentication: only a session's writes are checked. */
export const sameOriginWrites = createMiddleware<AppEnv>(async (c, next) => {
	if (c.get("principal").kind === "session" && !SAFE_METHODS.has(c.req.method) && crossOrigin(c.req.raw))
		throw new ApiError(
			"forbidden",
			"A signed-in write must come from this site (its Origin or Sec-Fetch-Site says otherwise).",
		);
	await next();
});
