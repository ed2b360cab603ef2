/**
 * POST /api/workspaces/{workspaceId}/webhook/secret: a new signing secret for the workspace's
 * webhook; the workspace's owner or an admin (a signed-in member gets 403 `forbidden`) or one of its
 * API keys. Why rotation has no grace period: webhook.ts.
 */
import { createRoute } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import { rotateWebhookSecret } from "../../../db/workspaces";
import type { Api } from "../../../env";
import { resolveManagedWorkspace } from "../../../middleware/auth";
import { newWebhookSecret } from "../../../services/webhooks";
import { BEARER_OR_SESSION, errorResponses, jsonOk, MANAGERS } from "../../openapi";
import { WebhookSettings, WorkspaceParams as params } from "./schemas";

const rotateRoute = createRoute({
	method: "post",
	path: "/workspaces/{workspaceId}/webhook/secret",
	tags: ["webhooks"],
	summary: "Rotate the webhook signing secret: the old one stops at once",
	description:
		`${MANAGERS} Answers the new secret. The old one signs nothing from this moment (no grace period: a leaked secret is what rotation is for). ` +
		"Deliveries the receiver refuses while it still checks the old secret are retried with backoff for about a day, each attempt signed with the then current secret.",
	security: BEARER_OR_SESSION,
	request: { params },
	responses: { 200: jsonOk(WebhookSettings, "The settings with the new secret."), ...errorResponses(401, 403) },
});

export function registerRotateWebhookSecret(api: Api) {
	api.openapi(rotateRoute, async (c) => {
		const workspaceId = resolveManagedWorkspace(c.get("principal"), c.req.valid("param").workspaceId);
		const row = await rotateWebhookSecret(getDb(c.env), workspaceId, newWebhookSecret());
		return c.json({ workspaceId, url: row.url, secret: row.secret! }, 200);
	});
}
