/** GET /api/caption-templates: the preset looks, then the workspace's own templates, each with a preview image; any member may list them. */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import type { Api } from "../../../env";
import { resolveWorkspace } from "../../../middleware/auth";
import { listCaptionTemplates, TEMPLATE_CHOICES } from "../../../services/caption-templates";
import { BEARER_OR_SESSION, errorResponses, jsonOk } from "../../openapi";
import { CaptionTemplate, Font, originOf, Position, previewRenderer, WorkspaceQuery } from "./schemas";

const route = createRoute({
	method: "get",
	path: "/caption-templates",
	tags: ["caption templates"],
	summary: "The preset caption looks, then the workspace's own templates (newest first), each with a preview image",
	security: BEARER_OR_SESSION,
	request: { query: WorkspaceQuery },
	responses: {
		200: jsonOk(
			z.object({
				templates: z.array(CaptionTemplate),
				fonts: z
					.array(z.object({ id: Font, name: z.string() }))
					.openapi({ description: "Fonts a template may use." }),
				positions: z.array(Position),
			}),
			"The looks.",
		),
		...errorResponses(400, 401, 403),
	},
});

export const registerListCaptionTemplates = (api: Api) =>
	api.openapi(route, async (c) => {
		const workspaceId = resolveWorkspace(c.get("principal"), c.req.valid("query").workspaceId);
		const templates = await listCaptionTemplates(
			c.env,
			getDb(c.env),
			previewRenderer(c.env),
			workspaceId,
			originOf(c.req.url),
		);
		return c.json({ templates, ...TEMPLATE_CHOICES }, 200);
	});
