/** `GET /`: the site's root is the dashboard (the API lives under /api, its reference at /docs). */
import type { Hono } from "hono";
import type { AppEnv } from "../../env";

export function registerRoot(routes: Hono<AppEnv>) {
	routes.get("/", (c) => c.redirect("/app", 302));
}
