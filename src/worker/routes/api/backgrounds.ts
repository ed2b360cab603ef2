/** /api/backgrounds and /api/backgrounds/{id}: the split-screen library, built-ins by category plus a workspace's own uploads. */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../db/client";
import type { Api } from "../../env";
import { resolveWorkspace } from "../../middleware/auth";
import { deleteBackground, importBackground, listBackgrounds } from "../../services/media-library";
import { createRenderClient } from "../../services/render-client";
import { renderInstance } from "../../services/render-instances";
import { BEARER_OR_SESSION, errorResponses, jsonBody, jsonOk } from "../openapi";

const Background = z
	.object({
		id: z.string().openapi({ description: "Use as `splitScreenBgVideoId`." }),
		name: z.string(),
		categoryId: z.string().openapi({ description: "Use as `splitScreenBgCategoryId` to let the service pick one of the category." }),
		builtIn: z.boolean(),
		createdAt: z.string().nullable(),
	})
	.openapi("Background");
const Category = z.object({ id: z.string(), name: z.string() }).openapi("BackgroundCategory");
const WorkspaceQuery = z.object({ workspaceId: z.string().min(1).max(64).optional() });

const listRoute = createRoute({
	method: "get",
	path: "/backgrounds",
	tags: ["backgrounds"],
	summary: "Built-in backgrounds by category, then the workspace's own uploads (newest first)",
	security: BEARER_OR_SESSION,
	request: { query: WorkspaceQuery },
	responses: { 200: jsonOk(z.object({ categories: z.array(Category), backgrounds: z.array(Background) }), "The library."), ...errorResponses(400, 401, 403) },
});

const createRouteDef = createRoute({
	method: "post",
	path: "/backgrounds",
	tags: ["backgrounds"],
	summary: "Add a background video by URL (its first 60 s are imported, without sound)",
	security: BEARER_OR_SESSION,
	request: {
		body: jsonBody(
			z
				.strictObject({
					url: z.string().min(1).max(2048),
					name: z.string().trim().min(1).max(120).optional(),
					categoryId: z.string().min(1).max(64).optional().openapi({ description: "Defaults to `custom`." }),
					workspaceId: z.string().min(1).max(64).optional(),
				})
				.openapi("CreateBackground"),
		),
	},
	responses: { 201: jsonOk(Background, "Imported."), ...errorResponses(400, 401, 403, 409, 422, 503) },
});

const deleteRouteDef = createRoute({
	method: "delete",
	path: "/backgrounds/{id}",
	tags: ["backgrounds"],
	summary: "Delete one of the workspace's own backgrounds",
	security: BEARER_OR_SESSION,
	request: { params: z.object({ id: z.string().min(1).max(64) }), query: WorkspaceQuery },
	responses: { 204: { description: "Deleted." }, ...errorResponses(401, 403, 404) },
});

export function registerBackgrounds(api: Api) {
	api.openapi(listRoute, async (c) => {
		const workspaceId = resolveWorkspace(c.get("principal"), c.req.valid("query").workspaceId);
		return c.json(await listBackgrounds(getDb(c.env), workspaceId), 200);
	});
	api.openapi(createRouteDef, async (c) => {
		const body = c.req.valid("json");
		const workspaceId = resolveWorkspace(c.get("principal"), body.workspaceId);
		const created = await importBackground(c.env, getDb(c.env), createRenderClient(c.env, renderInstance.import(workspaceId)), workspaceId, {
			url: body.url,
			name: body.name ?? null,
			categoryId: body.categoryId ?? null,
		});
		return c.json(created, 201);
	});
	api.openapi(deleteRouteDef, async (c) => {
		const workspaceId = resolveWorkspace(c.get("principal"), c.req.valid("query").workspaceId);
		await deleteBackground(c.env, getDb(c.env), workspaceId, c.req.valid("param").id);
		return c.body(null, 204);
	});
}
