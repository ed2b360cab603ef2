/**
 * GET /api/videos/{id}/webhooks: every webhook delivery attempt for a video. The workspace's
 * webhook is the managers' to set and read (its path often carries the receiver's secret token):
 * a signed-in member sees only its origin; a submission's own webhook is shown whole.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import { webhookDeliveriesOf } from "../../../db/webhooks";
import type { Api } from "../../../env";
import { isManager } from "../../../middleware/auth";
import { BEARER_OR_SESSION, errorResponses, jsonOk } from "../../openapi";
import { VideoId } from "./schemas";
import { requireVideo } from "./views";

const Delivery = z
	.object({
		event: z.string(),
		url: z.string().openapi({
			description:
				"Where it was sent. For a signed-in member (not an owner or admin), a delivery to the workspace's webhook shows only its origin (`https://host/…`).",
		}),
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
		const principal = c.get("principal");
		const video = await requireVideo(db, id, principal.workspaceIds);
		const manager = isManager(principal, video.workspaceId);
		const shown = (url: string) => (manager || url === video.webhookUrl ? url : originOnly(url));
		const rows = await webhookDeliveriesOf(db, id);
		return c.json(
			{ deliveries: rows.map(({ id: _id, videoId: _v, url, ...rest }) => ({ ...rest, url: shown(url) })) },
			200,
		);
	});

/** `https://hooks.example.com/…`: where a delivery went, without the path and query that may hold a token. */
function originOnly(url: string): string {
	try {
		return `${new URL(url).origin}/…`;
	} catch {
		return "…";
	}
}
