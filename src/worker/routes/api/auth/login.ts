/** POST /api/auth/login (public): email and password → the HttpOnly session cookie; attempts back off per IP and per email. */
import { createRoute, z } from "@hono/zod-openapi";
import { createSession, findUserByEmail } from "../../../db/access";
import { getDb } from "../../../db/client";
import type { Api } from "../../../env";
import { ApiError } from "../../../errors";
import { SESSION_COOKIE_NAME } from "../../../middleware/auth";
import { requireJson } from "../../../middleware/require-json";
import { sameOriginOnly } from "../../../middleware/same-origin";
import { sha256Hex } from "../../../services/crypto";
import { admitAttempt, attemptSucceeded, loginKeys } from "../../../services/login-throttle";
import { verifyPassword } from "../../../services/passwords";
import { errorResponses, jsonBody, jsonOk } from "../../openapi";
import { BACKOFF, LoginResponse, newSession, setSessionCookie } from "./session";

const LoginBody = z
	.strictObject({ email: z.string().email().max(320), password: z.string().min(1).max(1024) })
	.openapi("Login");

const route = createRoute({
	method: "post",
	path: "/auth/login",
	tags: ["auth"],
	summary: "Sign in with email and password; sets an HttpOnly session cookie",
	description: `Sets \`${SESSION_COOKIE_NAME}\` (HttpOnly, Secure, SameSite=Lax, Path=/, 7 days). ${BACKOFF}`,
	middleware: [sameOriginOnly, requireJson] as const,
	request: { body: jsonBody(LoginBody) },
	responses: {
		200: jsonOk(LoginResponse, `Signed in; \`Set-Cookie: ${SESSION_COOKIE_NAME}=…\`.`),
		...errorResponses(400, 401, 403, 413, 429),
	},
});

export const registerLogin = (api: Api) =>
	api.openapi(route, async (c) => {
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
		await createSession(db, {
			id: session.id,
			tokenHash: await sha256Hex(session.token),
			userId: user.id,
			expiresAt: session.expiresAt,
		});
		setSessionCookie(c, session.token);
		return c.json({ user: { id: user.id, email: user.email }, expiresAt: session.expiresAt }, 200);
	});
