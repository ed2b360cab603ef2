/** GET /api/workspaces/{workspaceId}/watermark: its text, an image, or the default clipforge mark. */
import { createRoute } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import { watermarkOf } from "../../../db/workspaces";
import type { Api } from "../../../env";
import { resolveWorkspace } from "../../../middleware/auth";
import { watermarkView } from "../../../services/media-library";
import { BEARER_OR_SESSION, errorResponses, jsonOk } from "../../openapi";
import { Watermark, WorkspaceParams as params } from "./schemas";

const getRoute = createRoute({
	method: "get",
	path: "/workspaces/{workspaceId}/watermark",
	tags: ["workspaces"],
	summary: "The workspace's watermark",
	security: BEARER_OR_SESSION,
	request: { params },
	responses: { 200: jsonOk(Watermark, "The watermark."), ...errorResponses(401, 403) },
});
export function registerGetWatermark(api: Api) {
	api.openapi(getRoute, async (c) => {
		const workspaceId = resolveWorkspace(c.get("principal"), c.req.valid("param").workspaceId);
		const row = await watermarkOf(getDb(c.env), workspaceId);
		return c.json({ workspaceId, ...watermarkView(row!) }, 200);
	});
}
