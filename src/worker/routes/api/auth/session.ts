/** The session cookie the dashboard signs in with, and the schemas the auth routes share. */
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../../../env";
import { SESSION_COOKIE, SESSION_COOKIE_PREFIX } from "../../../middleware/auth";
import { base64UrlEncode, newId } from "../../../services/crypto";

export const SESSION_TTL_SECONDS = 7 * 24 * 60 * 60;
export const MIN_PASSWORD_LENGTH = 8;

export const LoginResponse = z
	.object({ user: z.object({ id: z.string(), email: z.string() }), expiresAt: z.string() })
	.openapi("Session");

export const BACKOFF =
	"Attempts back off per client IP and per email: after 5 attempts for one email (30 from one network) each further one must wait twice as long as the last " +
	"(1 s, 2 s, 4 s … 15 min); an attempt made too early is refused with 429 `rate_limited` and `Retry-After` (seconds). A quiet hour starts a key over; signing in clears its email.";

export function newSession() {
	return {
		id: newId("ses"),
		token: base64UrlEncode(crypto.getRandomValues(new Uint8Array(32))),
		expiresAt: new Date(Date.now() + SESSION_TTL_SECONDS * 1000).toISOString(),
	};
}

/** `__Host-cf_session`: Secure, Path=/ and no Domain, as the prefix requires; the old un-prefixed cookie is cleared. */
export function setSessionCookie(c: Context<AppEnv>, token: string): void {
	setCookie(c, SESSION_COOKIE, token, {
		prefix: SESSION_COOKIE_PREFIX,
		httpOnly: true,
		secure: true,
		sameSite: "Lax",
		path: "/",
		maxAge: SESSION_TTL_SECONDS,
	});
	deleteCookie(c, SESSION_COOKIE, { path: "/", secure: true, httpOnly: true, sameSite: "Lax" });
}
