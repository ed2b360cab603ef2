/** Webhook settings of a workspace, and the delivery log of a video. */
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { asc, eq } from "drizzle-orm";
import { getDb } from "../db/client";
import { webhookDeliveries, workspaces } from "../db/schema";
import type { AppEnv } from "../env";
import { handleZodError } from "../errors";
import { resolveWorkspace } from "../middleware/auth";
import { parseSourceUrl } from "../services/source-url";
import { newWebhookSecret } from "../services/webhooks";
import { BEARER_OR_SESSION, errorResponses, jsonBody, jsonOk } from "./openapi";
import { loadVideo } from "./videos/videos.routes";
import { VideoId } from "./videos/videos.schemas";

const WebhookSettings = z
	.object({ workspaceId: z.string(), url: z.string().nullable(), secret: z.string().openapi({ description: "HMAC key of X-Clipforge-Signature (`whsec_…`)." }) })
	.openapi("WebhookSettings");
const Delivery = z
	.object({ event: z.string(), url: z.string(), attempt: z.number().int(), statusCode: z.number().int().nullable(), error: z.string().nullable(), durationMs: z.number().int().nullable(), createdAt: z.string() })
	.openapi("WebhookDelivery");

const putRoute = createRoute({
	method: "put",
	path: "/workspaces/{workspaceId}/webhook",
	tags: ["webhooks"],
	summary: "Set (or clear with null) the workspace's webhook URL; answers the signing secret",
	security: BEARER_OR_SESSION,
	request: {
		params: z.object({ workspaceId: z.string().min(1).max(64) }),
		body: jsonBody(z.strictObject({ url: z.string().min(1).max(2048).nullable() })),
	},
	responses: { 200: jsonOk(WebhookSettings, "The settings."), ...errorResponses(400, 401, 403) },
});

const deliveriesRoute = createRoute({
	method: "get",
	path: "/videos/{id}/webhooks",
	tags: ["webhooks"],
	summary: "Every webhook delivery attempt for a video, oldest first",
	security: BEARER_OR_SESSION,
	request: { params: z.object({ id: VideoId }) },
	responses: { 200: jsonOk(z.object({ deliveries: z.array(Delivery) }), "Attempts."), ...errorResponses(401, 404) },
});

export const webhookRoutes = new OpenAPIHono<AppEnv>({ defaultHook: handleZodError })
	.openapi(putRoute, async (c) => {
		const workspaceId = resolveWorkspace(c.get("principal"), c.req.valid("param").workspaceId);
		const { url } = c.req.valid("json");
		const checked = url === null ? null : parseSourceUrl(url, c.env, "url").toString();
		const db = getDb(c.env);
		await c.env.DB.prepare("UPDATE workspaces SET webhook_url = ?2, webhook_secret = COALESCE(webhook_secret, ?3) WHERE id = ?1").bind(workspaceId, checked, newWebhookSecret()).run();
		const row = (await db.select({ url: workspaces.webhookUrl, secret: workspaces.webhookSecret }).from(workspaces).where(eq(workspaces.id, workspaceId)).get())!;
		return c.json({ workspaceId, url: row.url, secret: row.secret ?? "" }, 200);
	})
	.openapi(deliveriesRoute, async (c) => {
		const { id } = c.req.valid("param");
		const db = getDb(c.env);
		await loadVideo(db, id, c.get("principal").workspaceIds);
		const rows = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.videoId, id)).orderBy(asc(webhookDeliveries.id)).all();
		return c.json({ deliveries: rows.map(({ id: _id, videoId: _v, ...rest }) => rest) }, 200);
	});
