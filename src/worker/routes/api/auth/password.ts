/** POST /api/auth/password (a signed-in user): a new password; every session of the user ends, this browser gets a fresh one. */
import { createRoute, z } from "@hono/zod-openapi";
import { changePassword, findUserById } from "../../../db/access";
import { getDb } from "../../../db/client";
import type { Api } from "../../../env";
import { ApiError } from "../../../errors";
import { requireSession, SESSION_COOKIE_NAME } from "../../../middleware/auth";
import { sha256Hex } from "../../../services/crypto";
import { admitAttempt, attemptSucceeded, loginKeys } from "../../../services/login-throttle";
import { hashPassword, verifyPassword } from "../../../services/passwords";
import { errorResponses, jsonBody, jsonOk, SESSION_ONLY } from "../../openapi";
import { BACKOFF, LoginResponse, MIN_PASSWORD_LENGTH, newSession, setSessionCookie } from "./session";

const ChangePasswordBody = z
	.strictObject({
		currentPassword: z.string().min(1).max(1024),
		newPassword: z.string().min(MIN_PASSWORD_LENGTH).max(1024),
	})
	.openapi("ChangePassword");

const route = createRoute({
	method: "post",
	path: "/auth/password",
	tags: ["auth"],
	summary: "Change your password; every other session of yours ends at once",
	description:
		`Needs the current password. Every session of the user ends (a stolen session does not outlive the password it was opened with); this browser gets a fresh one in \`${SESSION_COOKIE_NAME}\`. ` +
		`API keys are workspace credentials and keep working (revoke them with DELETE /api/api-keys/{id}). ${BACKOFF}`,
	security: SESSION_ONLY,
	request: { body: jsonBody(ChangePasswordBody) },
	responses: {
		200: jsonOk(LoginResponse, "Changed; a fresh session cookie."),
		...errorResponses(400, 401, 403, 413, 429),
	},
});

export function registerChangePassword(api: Api): void {
	api.use("/auth/password", requireSession);
	api.openapi(route, async (c) => {
		const { currentPassword, newPassword } = c.req.valid("json");
		const principal = c.get("principal");
		if (principal.kind !== "session") throw new ApiError("forbidden", "This needs a signed-in session.");
		const db = getDb(c.env);
		const user = await findUserById(db, principal.userId);
		if (!user) throw new ApiError("unauthorized", "The session's user no longer exists; sign in again.");
		const keys = await loginKeys(c.req.raw, user.email);
		await admitAttempt(db, keys, (seconds) => c.header("Retry-After", String(seconds)));
		if (!(await verifyPassword(currentPassword, user.passwordHash))) {
			throw new ApiError("unauthorized", "The current password is wrong.", [
				{ path: "currentPassword", message: "does not match" },
			]);
		}
		await attemptSucceeded(db, keys);
		const session = newSession();
		await changePassword(db, user.id, await hashPassword(newPassword), {
			id: session.id,
			tokenHash: await sha256Hex(session.token),
			expiresAt: session.expiresAt,
		});
		setSessionCookie(c, session.token);
		return c.json({ user: { id: user.id, email: user.email }, expiresAt: session.expiresAt }, 200);
	});
}
