/** /api/projects: named groups of a workspace's videos. */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../db/client";
import { createProject, projectsOf } from "../../db/library";
import type { Api } from "../../env";
import { resolveWorkspace, workspaceScope } from "../../middleware/auth";
import { newId } from "../../services/crypto";
import { BEARER_OR_SESSION, errorResponses, jsonBody, jsonOk } from "../openapi";

const Project = z
	.object({ id: z.string(), name: z.string(), workspaceId: z.string(), createdAt: z.string() })
	.openapi("Project");
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
const listProjectsRoute = createRoute({
	method: "get",
	path: "/projects",
	tags: ["projects"],
	summary: "List the projects of your workspace(s)",
	security: BEARER_OR_SESSION,
	request: { query: z.object({ workspaceId: z.string().optional() }) },
	responses: {
		200: jsonOk(z.object({ projects: z.array(Project) }), "Projects, newest first."),
		...errorResponses(401, 403),
	},
});

const view = (r: { id: string; name: string; workspaceId: string; createdAt: string }) => ({
	id: r.id,
	name: r.name,
	workspaceId: r.workspaceId,
	createdAt: r.createdAt,
});

export function registerProjects(api: Api) {
	api.openapi(createProjectRoute, async (c) => {
		const body = c.req.valid("json");
		const workspaceId = resolveWorkspace(c.get("principal"), body.workspaceId);
		const row = await createProject(getDb(c.env), { id: newId("prj"), workspaceId, name: body.name });
		return c.json(view(row), 201);
	});
	api.openapi(listProjectsRoute, async (c) => {
		const { workspaceId } = c.req.valid("query");
		const rows = await projectsOf(getDb(c.env), workspaceScope(c.get("principal"), workspaceId));
		return c.json({ projects: rows.map(view) }, 200);
	});
}
