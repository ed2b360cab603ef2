/** GET /api/workspaces: the workspaces these credentials can use, with minutes and plan. */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import { workspacesWithPlans } from "../../../db/workspaces";
import type { Api } from "../../../env";
import { BEARER_OR_SESSION, errorResponses, jsonOk } from "../../openapi";

export const Workspace = z
	.object({
		id: z.string(),
		name: z.string(),
		minutesBalance: z.number().int(),
		plan: z
			.object({
				name: z.string(),
				active: z.boolean(),
				maxVideoSeconds: z.number().int(),
				expiresAt: z.string().nullable(),
			})
			.nullable(),
		createdAt: z.string(),
	})
	.openapi("Workspace");

const listRoute = createRoute({
	method: "get",
	path: "/workspaces",
	tags: ["workspaces"],
	summary: "Workspaces these credentials can use (an API key: its own; a session: every membership)",
	security: BEARER_OR_SESSION,
	responses: { 200: jsonOk(z.array(Workspace), "Workspaces."), ...errorResponses(401) },
});

export const registerWorkspaceList = (api: Api) =>
	api.openapi(listRoute, async (c) => {
		const rows = await workspacesWithPlans(getDb(c.env), c.get("principal").workspaceIds);
		return c.json(
			rows.map(({ workspace, plan }) => ({
				id: workspace.id,
				name: workspace.name,
				minutesBalance: workspace.minutesBalance,
				plan: plan
					? {
							name: plan.name,
							active: plan.active,
							maxVideoSeconds: plan.maxVideoSeconds,
							expiresAt: plan.expiresAt,
						}
					: null,
				createdAt: workspace.createdAt,
			})),
			200,
		);
	});
