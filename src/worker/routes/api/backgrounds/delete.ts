/** DELETE /api/backgrounds/{id}: one of the workspace's own backgrounds (its owner or an admin: other members' running videos may use it). */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import type { Api } from "../../../env";
import { resolveManagedWorkspace } from "../../../middleware/auth";
import { deleteBackground } from "../../../services/media-library";
import { BEARER_OR_SESSION, errorResponses, MANAGERS } from "../../openapi";
import { WorkspaceQuery } from "./schemas";

const route = createRoute({
	method: "delete",
	path: "/backgrounds/{id}",
	tags: ["backgrounds"],
	summary: "Delete one of the workspace's own backgrounds",
	description: `${MANAGERS} A running video that uses it fails, its charge kept.`,
	security: BEARER_OR_SESSION,
	request: { params: z.object({ id: z.string().min(1).max(64) }), query: WorkspaceQuery },
	responses: { 204: { description: "Deleted." }, ...errorResponses(401, 403, 404) },
});

export const registerDeleteBackground = (api: Api) =>
	api.openapi(route, async (c) => {
		const workspaceId = resolveManagedWorkspace(c.get("principal"), c.req.valid("query").workspaceId);
		await deleteBackground(c.env, getDb(c.env), workspaceId, c.req.valid("param").id);
		return c.body(null, 204);
	});
