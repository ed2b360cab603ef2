/** GET/PUT /api/workspaces/{workspaceId}/watermark: its text, an image, or the default clipforge mark. */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import { watermarkOf } from "../../../db/workspaces";
import type { Api } from "../../../env";
import { resolveManagedWorkspace, resolveWorkspace } from "../../../middleware/auth";
import { setWatermark, watermarkView } from "../../../services/media-library";
import { createRenderClient } from "../../../services/render-client";
import { renderInstance } from "../../../services/render-instances";
import { BEARER_OR_SESSION, errorResponses, jsonBody, jsonOk, MANAGERS } from "../../openapi";

const Watermark = z
	.object({ workspaceId: z.string(), type: z.enum(["default", "text", "image"]), text: z.string().nullable() })
	.openapi("Watermark", {
		description: "Drawn on every clip whose config has `enableWatermark: true` (the default).",
	});
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
const params = z.object({ workspaceId: z.string().min(1).max(64) });

const getRoute = createRoute({
	method: "get",
	path: "/workspaces/{workspaceId}/watermark",
	tags: ["workspaces"],
	summary: "The workspace's watermark",
	security: BEARER_OR_SESSION,
	request: { params },
	responses: { 200: jsonOk(Watermark, "The watermark."), ...errorResponses(401, 403) },
});
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

export function registerWatermark(api: Api) {
	api.openapi(getRoute, async (c) => {
		const workspaceId = resolveWorkspace(c.get("principal"), c.req.valid("param").workspaceId);
		const row = await watermarkOf(getDb(c.env), workspaceId);
		return c.json({ workspaceId, ...watermarkView(row!) }, 200);
	});
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
