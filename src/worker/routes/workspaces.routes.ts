import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { eq, inArray } from "drizzle-orm";
import { getDb } from "../db/client";
import { plans, workspaces } from "../db/schema";
import type { AppEnv } from "../env";
import { handleZodError } from "../errors";
import { BEARER_OR_SESSION, errorResponses, jsonOk } from "./openapi";

export const Workspace = z
	.object({
		id: z.string(),
		name: z.string(),
		minutesBalance: z.number().int(),
		plan: z.object({ name: z.string(), active: z.boolean(), maxVideoSeconds: z.number().int(), expiresAt: z.string().nullable() }).nullable(),
		createdAt: z.string(),
	})
	.openapi("Workspace");

const listRoute = createRoute({
	method: "get",
	path: "/",
	tags: ["workspaces"],
	summary: "Workspaces these credentials can use (an API key: its own; a session: every membership)",
	security: BEARER_OR_SESSION,
	responses: { 200: jsonOk(z.array(Workspace), "Workspaces."), ...errorResponses(401) },
});

export const workspaceRoutes = new OpenAPIHono<AppEnv>({ defaultHook: handleZodError }).openapi(listRoute, async (c) => {
	const rows = await getDb(c.env)
		.select({ workspace: workspaces, plan: plans })
		.from(workspaces)
		.leftJoin(plans, eq(plans.workspaceId, workspaces.id))
		.where(inArray(workspaces.id, c.get("principal").workspaceIds))
		.orderBy(workspaces.createdAt, workspaces.id)
		.all();
	return c.json(
		rows.map(({ workspace, plan }) => ({
			id: workspace.id,
			name: workspace.name,
			minutesBalance: workspace.minutesBalance,
			plan: plan ? { name: plan.name, active: plan.active, maxVideoSeconds: plan.maxVideoSeconds, expiresAt: plan.expiresAt } : null,
			createdAt: workspace.createdAt,
		})),
		200,
	);
});
