/** GET /api/videos/{id}/webhooks: every webhook delivery attempt for a video. */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import { webhookDeliveriesOf } from "../../../db/webhooks";
import type { Api } from "../../../env";
import { BEARER_OR_SESSION, errorResponses, jsonOk } from "../../openapi";
import { VideoId } from "./schemas";
import { requireVideo } from "./views";

const Delivery = z
	.object({
		event: z.string(),
		url: z.string(),
		attempt: z.number().int(),
		statusCode: z.number().int().nullable(),
		error: z.string().nullable(),
		durationMs: z.number().int().nullable(),
		createdAt: z.string(),
	})
	.openapi("WebhookDelivery");

const deliveriesRoute = createRoute({
	method: "get",
	path: "/videos/{id}/webhooks",
	tags: ["webhooks"],
	summary: "Every webhook delivery attempt for a video, oldest first",
	security: BEARER_OR_SESSION,
	request: { params: z.object({ id: VideoId }) },
	responses: { 200: jsonOk(z.object({ deliveries: z.array(Delivery) }), "Attempts."), ...errorResponses(401, 404) },
});

export const registerVideoWebhooks = (api: Api) =>
	api.openapi(deliveriesRoute, async (c) => {
		const { id } = c.req.valid("param");
		const db = getDb(c.env);
		await requireVideo(db, id, c.get("principal").workspaceIds);
		const rows = await webhookDeliveriesOf(db, id);
		return c.json({ deliveries: rows.map(({ id: _id, videoId: _v, ...rest }) => rest) }, 200);
	});
