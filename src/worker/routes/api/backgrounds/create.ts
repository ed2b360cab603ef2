/** POST /api/backgrounds: a background video by URL (its first 60 s, without sound), up to the plan's number. */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import type { Api } from "../../../env";
import { resolveWorkspace } from "../../../middleware/auth";
import { importBackground } from "../../../services/media-library";
import { createRenderClient } from "../../../services/render-client";
import { renderInstance } from "../../../services/render-instances";
import { BEARER_OR_SESSION, errorResponses, jsonBody, jsonOk } from "../../openapi";
import { Background } from "./schemas";

const route = createRoute({
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

export const registerCreateBackground = (api: Api) =>
	api.openapi(route, async (c) => {
		const body = c.req.valid("json");
		const workspaceId = resolveWorkspace(c.get("principal"), body.workspaceId);
		const created = await importBackground(
			c.env,
			getDb(c.env),
			createRenderClient(c.env, renderInstance.import(workspaceId)),
			workspaceId,
			{
				url: body.url,
				name: body.name ?? null,
				categoryId: body.categoryId ?? null,
			},
		);
		return c.json(created, 201);
	});
