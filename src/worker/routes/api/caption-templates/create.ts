/** POST /api/caption-templates: a preset with the workspace's font, colours and position (its brand kit: owners, admins and its API keys). */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import type { Api } from "../../../env";
import { resolveManagedWorkspace } from "../../../middleware/auth";
import { createTemplate } from "../../../services/caption-templates";
import { CAPTION_PRESET_IDS } from "@clipforge/contract";
import { BEARER_OR_SESSION, errorResponses, jsonBody, jsonOk, MANAGERS } from "../../openapi";
import { CaptionTemplate, originOf, overrides, previewRenderer } from "./schemas";

const route = createRoute({
	method: "post",
	path: "/caption-templates",
	tags: ["caption templates"],
	summary: "Save a caption template for the workspace: a preset with its own font, colours and position (brand kit)",
	description: MANAGERS,
	security: BEARER_OR_SESSION,
	request: {
		body: jsonBody(
			z
				.strictObject({
					name: z.string().trim().min(1).max(80),
					presetId: z.enum(CAPTION_PRESET_IDS),
					...overrides,
					workspaceId: z.string().min(1).max(64).optional(),
				})
				.openapi("CreateCaptionTemplate"),
		),
	},
	responses: {
		201: jsonOk(CaptionTemplate, "Saved; use its `id` as `captionTemplateId`."),
		...errorResponses(400, 401, 403, 409),
	},
});

export const registerCreateCaptionTemplate = (api: Api) =>
	api.openapi(route, async (c) => {
		const { workspaceId: requested, ...input } = c.req.valid("json");
		const workspaceId = resolveManagedWorkspace(c.get("principal"), requested);
		return c.json(
			await createTemplate(c.env, getDb(c.env), previewRenderer(c.env), workspaceId, input, originOf(c.req.url)),
			201,
		);
	});
