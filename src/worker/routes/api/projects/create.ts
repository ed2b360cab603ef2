/** POST /api/projects: a named group of a workspace's videos. */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import { createProject } from "../../../db/library";
import type { Api } from "../../../env";
import { resolveWorkspace } from "../../../middleware/auth";
import { newId } from "../../../services/crypto";
import { BEARER_OR_SESSION, errorResponses, jsonBody, jsonOk } from "../../openapi";
import { Project, projectView } from "./schemas";

const CreateProjectBody = z
	.strictObject({ name: z.string().trim().min(1).max(200), workspaceId: z.string().min(1).max(64).optional() })
	.openapi("CreateProject");

const createProjectRoute = createRoute({
	method: "post",
	path: "/projects",
	tags: ["projects"],
	summary: "Create a project to organise videos under",
	security: BEARER_OR_SESSION,
	request: { body: jsonBody(CreateProjectBody) },
	responses: { 201: jsonOk(Project, "Created."), ...errorResponses(400, 401, 403) },
});
export function registerCreateProject(api: Api) {
	api.openapi(createProjectRoute, async (c) => {
		const body = c.req.valid("json");
		const workspaceId = resolveWorkspace(c.get("principal"), body.workspaceId);
		const row = await createProject(getDb(c.env), { id: newId("prj"), workspaceId, name: body.name });
		return c.json(projectView(row), 201);
	});
}
