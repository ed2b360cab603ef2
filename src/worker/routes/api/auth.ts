/**
 * POST /api/auth/login, /api/auth/logout (public) and /api/auth/password (a signed-in user): the
 * dashboard's session cookie. Sign-in attempts back off per IP and per email (services/login-throttle.ts).
 */
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { changePassword, createSession, deleteSession, findUserByEmail, findUserById } from "../../db/access";
import { getDb } from "../../db/client";
import type { Api, AppEnv } from "../../env";
import { ApiError } from "../../errors";
import { requireSession, SESSION_COOKIE, SESSION_COOKIE_NAME, SESSION_COOKIE_PREFIX } from "../../middleware/auth";
import { requireJson } from "../../middleware/require-json";
import { base64UrlEncode, newId, sha256Hex } from "../../services/crypto";
import { admitAttempt, attemptSucceeded, loginKeys } from "../../services/login-throttle";
import { hashPassword, verifyPassword } from "../../services/passwords";
import { errorResponses, jsonBody, jsonOk, SESSION_ONLY } from "../openapi";

export const SESSION_TTL_SECONDS = 7 * 24 * 60 * 60;
export const MIN_PASSWORD_LENGTH = 8;

const LoginBody = z.strictObject({ email: z.string().email().max(320), password: z.string().min(1).max(1024) }).openapi("Login");
const LoginResponse = z.object({ user: z.object({ id: z.string(), email: z.string() }), expiresAt: z.string() }).openapi("Session");
const ChangePasswordBody = z
	.strictObject({ currentPassword: z.string().min(1).max(1024), newPassword: z.string().min(MIN_PASSWORD_LENGTH).max(1024) })
	.openapi("ChangePassword");

const BACKOFF =
	"Attempts back off per client IP and per email: after 5 attempts for one email (30 from one network) each further one must wait twice as long as the last " +
	"(1 s, 2 s, 4 s … 15 min); an attempt made too early is refused with 429 `rate_limited` and `Retry-After` (seconds). A quiet hour starts a key over; signing in clears its email.";

const loginRoute = createRoute({
	method: "post",
	path: "/auth/login",
	tags: ["auth"],
	summary: "Sign in with email and password; sets an HttpOnly session cookie",
	description: `Sets \`${SESSION_COOKIE_NAME}\` (HttpOnly, Secure, SameSite=Lax, Path=/, 7 days). ${BACKOFF}`,
	middleware: [requireJson] as const,
	request: { body: jsonBody(LoginBody) },
	responses: { 200: jsonOk(LoginResponse, `Signed in; \`Set-Cookie: ${SESSION_COOKIE_NAME}=…\`.`), ...errorResponses(400, 401, 413, 429) },
});

const logoutRoute = createRoute({
	method: "post",
	path: "/auth/logout",
	tags: ["auth"],
	summary: "Sign out: the session stops working at once",
	responses: { 204: { description: "Signed out (also when there was no session)." }, ...errorResponses(413) },
});

const passwordRoute = createRoute({
	method: "post",
	path: "/auth/password",
	tags: ["auth"],
	summary: "Change your password; every other session of yours ends at once",
	description:
		`Needs the current password. Every session of the user ends (a stolen session does not outlive the password it was opened with); this browser gets a fresh one in \`${SESSION_COOKIE_NAME}\`. ` +
		`API keys are workspace credentials and keep working (revoke them with DELETE /api/api-keys/{id}). ${BACKOFF}`,
	security: SESSION_ONLY,
	request: { body: jsonBody(ChangePasswordBody) },
	responses: { 200: jsonOk(LoginResponse, "Changed; a fresh session cookie."), ...errorResponses(400, 401, 403, 413, 429) },
});

export const PUBLIC_AUTH_PATHS = ["/auth/login", "/auth/logout"];

export function registerAuth(api: Api) {
	api.openapi(loginRoute, async (c) => {
		const { email, password } = c.req.valid("json");
		const db = getDb(c.env);
		const keys = await loginKeys(c.req.raw, email);
		await admitAttempt(db, keys, (seconds) => c.header("Retry-After", String(seconds)));
		const user = await findUserByEmail(db, email.toLowerCase());
		// Same answer and the same hashing work whether the email is unknown or the password wrong.
		const ok = await verifyPassword(password, user?.passwordHash ?? null);
		if (!user || !ok) throw new ApiError("unauthorized", "The email or password is wrong.");
		await attemptSucceeded(db, keys);
		const session = newSession();
		await createSession(db, { id: session.id, tokenHash: await sha256Hex(session.token), userId: user.id, expiresAt: session.expiresAt });
		setSessionCookie(c, session.token);
		return c.json({ user: { id: user.id, email: user.email }, expiresAt: session.expiresAt }, 200);
	});
	api.openapi(logoutRoute, async (c) => {
		const db = getDb(c.env);
		// The pre-`__Host-` cookie is never accepted, but its session is ended here too.
		for (const token of [getCookie(c, SESSION_COOKIE, SESSION_COOKIE_PREFIX), getCookie(c, SESSION_COOKIE)]) {
			if (token) await deleteSession(db, await sha256Hex(token));
		}
		deleteCookie(c, SESSION_COOKIE, { path: "/", secure: true, httpOnly: true, sameSite: "Lax", prefix: SESSION_COOKIE_PREFIX });
		deleteCookie(c, SESSION_COOKIE, { path: "/", secure: true, httpOnly: true, sameSite: "Lax" });
		return c.body(null, 204);
	});
	api.use("/auth/password", requireSession);
	api.openapi(passwordRoute, async (c) => {
		const { currentPassword, newPassword } = c.req.valid("json");
		const principal = c.get("principal");
		if (principal.kind !== "session") throw new ApiError("forbidden", "This needs a signed-in session.");
		const db = getDb(c.env);
		const user = await findUserById(db, principal.userId);
		if (!user) throw new ApiError("unauthorized", "The session's user no longer exists; sign in again.");
		const keys = await loginKeys(c.req.raw, user.email);
		await admitAttempt(db, keys, (seconds) => c.header("Retry-After", String(seconds)));
		if (!(await verifyPassword(currentPassword, user.passwordHash))) {
			throw new ApiError("unauthorized", "The current password is wrong.", [{ path: "currentPassword", message: "does not match" }]);
		}
		await attemptSucceeded(db, keys);
		const session = newSession();
		await changePassword(db, user.id, await hashPassword(newPassword), { id: session.id, tokenHash: await sha256Hex(session.token), expiresAt: session.expiresAt });
		setSessionCookie(c, session.token);
		return c.json({ user: { id: user.id, email: user.email }, expiresAt: session.expiresAt }, 200);
	});
}

function newSession() {
	return {
		id: newId("ses"),
		token: base64UrlEncode(crypto.getRandomValues(new Uint8Array(32))),
		expiresAt: new Date(Date.now() + SESSION_TTL_SECONDS * 1000).toISOString(),
	};
}

/** `__Host-cf_session`: Secure, Path=/ and no Domain, as the prefix requires; the old un-prefixed cookie is cleared. */
function setSessionCookie(c: Context<AppEnv>, token: string): void {
	setCookie(c, SESSION_COOKIE, token, { prefix: SESSION_COOKIE_PREFIX, httpOnly: true, secure: true, sameSite: "Lax", path: "/", maxAge: SESSION_TTL_SECONDS });
	deleteCookie(c, SESSION_COOKIE, { path: "/", secure: true, httpOnly: true, sameSite: "Lax" });
}
