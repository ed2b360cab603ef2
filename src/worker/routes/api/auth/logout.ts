/** POST /api/auth/logout (public): the session stops working at once. */
import { createRoute } from "@hono/zod-openapi";
import { deleteCookie, getCookie } from "hono/cookie";
import { deleteSession } from "../../../db/access";
import { getDb } from "../../../db/client";
import type { Api } from "../../../env";
import { SESSION_COOKIE, SESSION_COOKIE_PREFIX } from "../../../middleware/auth";
import { sameOriginOnly } from "../../../middleware/same-origin";
import { sha256Hex } from "../../../services/crypto";
import { errorResponses } from "../../openapi";

const route = createRoute({
	method: "post",
	path: "/auth/logout",
	tags: ["auth"],
	summary: "Sign out: the session stops working at once",
	middleware: [sameOriginOnly] as const,
	responses: { 204: { description: "Signed out (also when there was no session)." }, ...errorResponses(403, 413) },
});

export const registerLogout = (api: Api) =>
	api.openapi(route, async (c) => {
		const db = getDb(c.env);
		// The pre-`__Host-` cookie is never accepted, but its session is ended here too.
		for (const token of [getCookie(c, SESSION_COOKIE, SESSION_COOKIE_PREFIX), getCookie(c, SESSION_COOKIE)]) {
			if (token) await deleteSession(db, await sha256Hex(token));
		}
		deleteCookie(c, SESSION_COOKIE, {
			path: "/",
			secure: true,
			httpOnly: true,
			sameSite: "Lax",
			prefix: SESSION_COOKIE_PREFIX,
		});
		deleteCookie(c, SESSION_COOKIE, { path: "/", secure: true, httpOnly: true, sameSite: "Lax" });
		return c.body(null, 204);
	});
