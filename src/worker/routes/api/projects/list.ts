/** GET /api/projects: the projects of the caller's workspace(s). */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import { projectsOf } from "../../../db/library";
import type { Api } from "../../../env";
import { workspaceScope } from "../../../middleware/auth";
import { BEARER_OR_SESSION, errorResponses, jsonOk } from "../../openapi";
import { Project, projectView } from "./schemas";

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

export function registerListProjects(api: Api) {
	api.openapi(listProjectsRoute, async (c) => {
		const { workspaceId } = c.req.valid("query");
		const rows = await projectsOf(getDb(c.env), workspaceScope(c.get("principal"), workspaceId));
		return c.json({ projects: rows.map(projectView) }, 200);
	});
}
