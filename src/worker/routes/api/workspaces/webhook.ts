/** PUT /api/workspaces/{workspaceId}/webhook: where the workspace's video events go, and their signing secret. */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import { setWebhook } from "../../../db/workspaces";
import type { Api } from "../../../env";
import { resolveWorkspace } from "../../../middleware/auth";
import { parseSourceUrl } from "../../../services/source-url";
import { newWebhookSecret } from "../../../services/webhooks";
import { BEARER_OR_SESSION, errorResponses, jsonBody, jsonOk } from "../../openapi";

const WebhookSettings = z
	.object({ workspaceId: z.string(), url: z.string().nullable(), secret: z.string().openapi({ description: "HMAC key of X-Clipforge-Signature (`whsec_…`)." }) })
	.openapi("WebhookSettings");

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

export const registerWorkspaceWebhook = (api: Api) => api.openapi(putRoute, async (c) => {
	const workspaceId = resolveWorkspace(c.get("principal"), c.req.valid("param").workspaceId);
	const { url } = c.req.valid("json");
	const checked = url === null ? null : parseSourceUrl(url, c.env, "url").toString();
	const row = await setWebhook(getDb(c.env), workspaceId, checked, newWebhookSecret());
	return c.json({ workspaceId, url: row.url, secret: row.secret ?? "" }, 200);
});
