/** PUT /api/workspaces/{workspaceId}/watermark: text, an image by URL (imported once), or back to the default mark. */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import type { Api } from "../../../env";
import { resolveManagedWorkspace } from "../../../middleware/auth";
import { setWatermark } from "../../../services/media-library";
import { createRenderClient } from "../../../services/render-client";
import { renderInstance } from "../../../services/render-instances";
import { BEARER_OR_SESSION, errorResponses, jsonBody, jsonOk, MANAGERS } from "../../openapi";
import { Watermark, WorkspaceParams as params } from "./schemas";

const WatermarkInput = z
	.discriminatedUnion("type", [
		z.strictObject({ type: z.literal("text"), text: z.string().trim().min(1).max(64) }),
		z.strictObject({
			type: z.literal("image"),
			imageUrl: z
				.string()
				.min(1)
				.max(2048)
				.openapi({ description: "A PNG/JPEG/WebP; imported once (≤ 512 px wide, transparency kept)." }),
		}),
		z.strictObject({ type: z.literal("default") }),
	])
	.openapi("WatermarkInput");
const putRoute = createRoute({
	method: "put",
	path: "/workspaces/{workspaceId}/watermark",
	tags: ["workspaces"],
	summary: "Set the workspace's watermark (text, image by URL, or back to the default mark)",
	description: `${MANAGERS} It is drawn on every member's clips.`,
	security: BEARER_OR_SESSION,
	request: { params, body: jsonBody(WatermarkInput) },
	responses: { 200: jsonOk(Watermark, "The new watermark."), ...errorResponses(400, 401, 403, 422, 503) },
});

export function registerSetWatermark(api: Api) {
	api.openapi(putRoute, async (c) => {
		const workspaceId = resolveManagedWorkspace(c.get("principal"), c.req.valid("param").workspaceId);
		const view = await setWatermark(
			c.env,
			getDb(c.env),
			createRenderClient(c.env, renderInstance.import(workspaceId)),
			workspaceId,
			c.req.valid("json"),
		);
		return c.json({ workspaceId, ...view }, 200);
	});
}
