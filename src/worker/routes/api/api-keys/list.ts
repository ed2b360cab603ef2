/** GET /api/api-keys: the keys of your workspaces (names and prefixes, never the keys); any member may list them. */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import type { Api } from "../../../env";
import { keysOf } from "../../../db/access";
import { workspaceScope } from "../../../middleware/auth";
import { errorResponses, jsonOk, SESSION_ONLY } from "../../openapi";
import { ApiKey, keyView } from "./schemas";

const route = createRoute({
	method: "get",
	path: "/api-keys",
	tags: ["api-keys"],
	summary: "List the API keys of your workspaces (never the keys themselves)",
	security: SESSION_ONLY,
	request: { query: z.object({ workspaceId: z.string().optional() }) },
	responses: {
		200: jsonOk(z.object({ apiKeys: z.array(ApiKey) }), "Keys, newest first."),
		...errorResponses(401, 403),
	},
});

export const registerListApiKeys = (api: Api) =>
	api.openapi(route, async (c) => {
		const { workspaceId } = c.req.valid("query");
		const rows = await keysOf(getDb(c.env), workspaceScope(c.get("principal"), workspaceId));
		return c.json({ apiKeys: rows.map(keyView) }, 200);
	});
