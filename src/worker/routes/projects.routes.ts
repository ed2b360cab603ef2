import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { desc, inArray } from "drizzle-orm";
import { getDb } from "../db/client";
import { projects } from "../db/schema";
import type { AppEnv } from "../env";
import { handleZodError } from "../errors";
import { resolveWorkspace, workspaceScope } from "../middleware/auth";
import { newId } from "../services/crypto";
import { BEARER_OR_SESSION, errorResponses, jsonBody, jsonOk } from "./openapi";

const Project = z.object({ id: z.string(), name: z.string(), workspaceId: z.string(), createdAt: z.string() }).openapi("Project");
const CreateProjectBody = z.strictObject({ name: z.string().trim().min(1).max(200), workspaceId: z.string().min(1).max(64).optional() }).openapi("CreateProject");

const createProjectRoute = createRoute({
	method: "post",
	path: "/",
	tags: ["projects"],
	summary: "Create a project to organise videos under",
	security: BEARER_OR_SESSION,
	request: { body: jsonBody(CreateProjectBody) },
	responses: { 201: jsonOk(Project, "Created."), ...errorResponses(400, 401, 403) },
});
const listProjectsRoute = createRoute({
	method: "get",
	path: "/",
	tags: ["projects"],
	summary: "List the projects of your workspace(s)",
	security: BEARER_OR_SESSION,
	request: { query: z.object({ workspaceId: z.string().optional() }) },
	responses: { 200: jsonOk(z.object({ projects: z.array(Project) }), "Projects, newest first."), ...errorResponses(401, 403) },
});

export const projectRoutes = new OpenAPIHono<AppEnv>({ defaultHook: handleZodError })
	.openapi(createProjectRoute, async (c) => {
		const body = c.req.valid("json");
		const workspaceId = resolveWorkspace(c.get("principal"), body.workspaceId);
		const row = await getDb(c.env).insert(projects).values({ id: newId("prj"), workspaceId, name: body.name }).returning().get();
		return c.json({ id: row.id, name: row.name, workspaceId: row.workspaceId, createdAt: row.createdAt }, 201);
	})
	.openapi(listProjectsRoute, async (c) => {
		const { workspaceId } = c.req.valid("query");
		const principal = c.get("principal");
		const rows = await getDb(c.env)
			.select()
			.from(projects)
			.where(inArray(projects.workspaceId, workspaceScope(principal, workspaceId)))
			.orderBy(desc(projects.createdAt), desc(projects.id))
			.all();
		return c.json({ projects: rows.map((r) => ({ id: r.id, name: r.name, workspaceId: r.workspaceId, createdAt: r.createdAt })) }, 200);
	});
