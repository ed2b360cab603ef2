/**
 * PUT /api/workspaces/{workspaceId}/webhook: where the workspace's video events go, and their
 * signing secret (a new one: POST …/webhook/secret, `webhook-secret.ts`). Both take the
 * workspace's owner or an admin (a signed-in member gets 403 `forbidden`) or one of its API keys.
 *
 * Rotation is immediate: the old secret signs nothing from that moment. A leaked secret is the
 * reason to rotate, and a grace period would keep it valid. Receivers still lose nothing: a
 * delivery their old secret refuses is answered non-2xx and retried with backoff for about a day,
 * each attempt signed with the secret current at that attempt, so it goes through once the
 * receiver has the new one.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import { setWebhook } from "../../../db/workspaces";
import type { Api } from "../../../env";
import { resolveManagedWorkspace } from "../../../middleware/auth";
import { parseSourceUrl } from "../../../services/source-url";
import { newWebhookSecret } from "../../../services/webhooks";
import { BEARER_OR_SESSION, errorResponses, jsonBody, jsonOk, MANAGERS } from "../../openapi";
import { WebhookSettings, WorkspaceParams as params } from "./schemas";

const putRoute = createRoute({
	method: "put",
	path: "/workspaces/{workspaceId}/webhook",
	tags: ["webhooks"],
	summary: "Set (or clear with null) the workspace's webhook URL; answers the signing secret",
	description: MANAGERS,
	security: BEARER_OR_SESSION,
	request: { params, body: jsonBody(z.strictObject({ url: z.string().min(1).max(2048).nullable() })) },
	responses: { 200: jsonOk(WebhookSettings, "The settings."), ...errorResponses(400, 401, 403) },
});

export function registerSetWebhook(api: Api) {
	api.openapi(putRoute, async (c) => {
		const workspaceId = resolveManagedWorkspace(c.get("principal"), c.req.valid("param").workspaceId);
		const { url } = c.req.valid("json");
		const checked = url === null ? null : parseSourceUrl(url, c.env, "url").toString();
		const row = await setWebhook(getDb(c.env), workspaceId, checked, newWebhookSecret());
		return c.json({ workspaceId, url: row.url, secret: row.secret ?? "" }, 200);
	});
}
