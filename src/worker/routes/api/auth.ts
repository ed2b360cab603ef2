/** POST /api/auth/login and /api/auth/logout: the dashboard's session cookie. Public routes. */
import { createRoute, z } from "@hono/zod-openapi";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { getDb } from "../../db/client";
import { createSession, deleteSession, findUserByEmail } from "../../db/access";
import type { Api } from "../../env";
import { ApiError } from "../../errors";
import { SESSION_COOKIE } from "../../middleware/auth";
import { requireJson } from "../../middleware/require-json";
import { base64UrlEncode, newId, sha256Hex } from "../../services/crypto";
import { verifyPassword } from "../../services/passwords";
import { errorResponses, jsonBody, jsonOk } from "../openapi";

export const SESSION_TTL_SECONDS = 7 * 24 * 60 * 60;

const LoginBody = z.strictObject({ email: z.string().email().max(320), password: z.string().min(1).max(1024) }).openapi("Login");
const LoginResponse = z.object({ user: z.object({ id: z.string(), email: z.string() }), expiresAt: z.string() }).openapi("Session");

const loginRoute = createRoute({
	method: "post",
	path: "/auth/login",
	tags: ["auth"],
	summary: "Sign in with email and password; sets an HttpOnly session cookie",
	middleware: [requireJson] as const,
	request: { body: jsonBody(LoginBody) },
	responses: { 200: jsonOk(LoginResponse, "Signed in; `Set-Cookie: cf_session=…`."), ...errorResponses(400, 401) },
});

const logoutRoute = createRoute({
	method: "post",
	path: "/auth/logout",
	tags: ["auth"],
	summary: "Sign out: the session stops working at once",
	responses: { 204: { description: "Signed out (also when there was no session)." } },
});

export const PUBLIC_AUTH_PATHS = ["/auth/login", "/auth/logout"];

export function registerAuth(api: Api) {
	api.openapi(loginRoute, async (c) => {
		const { email, password } = c.req.valid("json");
		const db = getDb(c.env);
		const user = await findUserByEmail(db, email.toLowerCase());
		// Same answer and the same hashing work whether the email is unknown or the password wrong.
		const ok = await verifyPassword(password, user?.passwordHash ?? null);
		if (!user || !ok) throw new ApiError("unauthorized", "The email or password is wrong.");
		const token = base64UrlEncode(crypto.getRandomValues(new Uint8Array(32)));
		const expiresAt = new Date(Date.now() + SESSION_TTL_SECONDS * 1000).toISOString();
		await createSession(db, { id: newId("ses"), tokenHash: await sha256Hex(token), userId: user.id, expiresAt });
		setCookie(c, SESSION_COOKIE, token, { httpOnly: true, secure: true, sameSite: "Lax", path: "/", maxAge: SESSION_TTL_SECONDS });
		return c.json({ user: { id: user.id, email: user.email }, expiresAt }, 200);
	});
	api.openapi(logoutRoute, async (c) => {
		const token = getCookie(c, SESSION_COOKIE);
		if (token) await deleteSession(getDb(c.env), await sha256Hex(token));
		deleteCookie(c, SESSION_COOKIE, { path: "/", secure: true, httpOnly: true, sameSite: "Lax" });
		return c.body(null, 204);
	});
}
