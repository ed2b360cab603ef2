/** GET /api/backgrounds: the built-in backgrounds by category, then the workspace's own uploads. */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import type { Api } from "../../../env";
import { resolveWorkspace } from "../../../middleware/auth";
import { listBackgrounds } from "../../../services/media-library";
import { BEARER_OR_SESSION, errorResponses, jsonOk } from "../../openapi";
import { Background, Category, WorkspaceQuery } from "./schemas";

const route = createRoute({
	method: "get",
	path: "/backgrounds",
	tags: ["backgrounds"],
	summary: "Built-in backgrounds by category, then the workspace's own uploads (newest first)",
	security: BEARER_OR_SESSION,
	request: { query: WorkspaceQuery },
	responses: {
		200: jsonOk(z.object({ categories: z.array(Category), backgrounds: z.array(Background) }), "The library."),
		...errorResponses(400, 401, 403),
	},
});

export const registerListBackgrounds = (api: Api) =>
	api.openapi(route, async (c) => {
		const workspaceId = resolveWorkspace(c.get("principal"), c.req.valid("query").workspaceId);
		return c.json(await listBackgrounds(getDb(c.env), workspaceId), 200);
	});
