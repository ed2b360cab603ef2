/** DELETE /api/caption-templates/{id}: videos already submitted with it still render with it. */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import type { Api } from "../../../env";
import { resolveManagedWorkspace } from "../../../middleware/auth";
import { deleteTemplate } from "../../../services/caption-templates";
import { BEARER_OR_SESSION, errorResponses, MANAGERS } from "../../openapi";
import { TemplateId, WorkspaceQuery } from "./schemas";

const route = createRoute({
	method: "delete",
	path: "/caption-templates/{id}",
	tags: ["caption templates"],
	summary: "Delete a template of the workspace (videos already submitted with it still render with it)",
	description: MANAGERS,
	security: BEARER_OR_SESSION,
	request: { params: z.object({ id: TemplateId }), query: WorkspaceQuery },
	responses: { 204: { description: "Deleted." }, ...errorResponses(401, 403, 404) },
});

export const registerDeleteCaptionTemplate = (api: Api) =>
	api.openapi(route, async (c) => {
		const workspaceId = resolveManagedWorkspace(c.get("principal"), c.req.valid("query").workspaceId);
		await deleteTemplate(getDb(c.env), workspaceId, c.req.valid("param").id);
		return c.body(null, 204);
	});
