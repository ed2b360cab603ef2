/** PATCH /api/caption-templates/{id}: change a template of the workspace (videos already rendered keep their look). */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import type { Api } from "../../../env";
import { resolveManagedWorkspace } from "../../../middleware/auth";
import { updateTemplate } from "../../../services/caption-templates";
import { CAPTION_PRESET_IDS } from "@clipforge/contract";
import { BEARER_OR_SESSION, errorResponses, jsonBody, jsonOk, MANAGERS } from "../../openapi";
import { CaptionTemplate, originOf, overrides, previewRenderer, TemplateId, WorkspaceQuery } from "./schemas";

const route = createRoute({
	method: "patch",
	path: "/caption-templates/{id}",
	tags: ["caption templates"],
	summary: "Change a template of the workspace (videos already rendered keep their look)",
	description: MANAGERS,
	security: BEARER_OR_SESSION,
	request: {
		params: z.object({ id: TemplateId }),
		query: WorkspaceQuery,
		body: jsonBody(
			z
				.strictObject({
					name: z.string().trim().min(1).max(80).optional(),
					presetId: z.enum(CAPTION_PRESET_IDS).optional(),
					...overrides,
				})
				.openapi("UpdateCaptionTemplate"),
		),
	},
	responses: { 200: jsonOk(CaptionTemplate, "Changed."), ...errorResponses(400, 401, 403, 404) },
});

export const registerUpdateCaptionTemplate = (api: Api) =>
	api.openapi(route, async (c) => {
		const workspaceId = resolveManagedWorkspace(c.get("principal"), c.req.valid("query").workspaceId);
		const changed = await updateTemplate(
			c.env,
			getDb(c.env),
			previewRenderer(c.env),
			workspaceId,
			c.req.valid("param").id,
			c.req.valid("json"),
			originOf(c.req.url),
		);
		return c.json(changed, 200);
	});
