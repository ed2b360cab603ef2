/** POST /api/api-keys: a new key for a workspace (its owner or an admin, signed in); the key is shown once. */
import { createRoute } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import type { Api } from "../../../env";
import { activeKeyCount, createKeyWithin } from "../../../db/access";
import { ApiError } from "../../../errors";
import { API_KEY_PREFIX, resolveManagedWorkspace } from "../../../middleware/auth";
import { base64UrlEncode, newId, sha256Hex } from "../../../services/crypto";
import { errorResponses, jsonBody, jsonOk, SESSION_ONLY } from "../../openapi";
import { CreateApiKeyBody, CreatedApiKey, keyView } from "./schemas";

/** Keys not revoked per workspace: rate limits count per workspace anyway, and a leak is easier to audit. */
export const MAX_KEYS_PER_WORKSPACE = 20;

const route = createRoute({
	method: "post",
	path: "/api-keys",
	tags: ["api-keys"],
	summary: "Create an API key for a workspace (its owner or an admin, signed in); the key is shown once",
	description: `At most ${MAX_KEYS_PER_WORKSPACE} keys not revoked per workspace (409 \`quota_exceeded\` beyond); requests are rate-limited per workspace, whichever key sends them.`,
	security: SESSION_ONLY,
	request: { body: jsonBody(CreateApiKeyBody) },
	responses: { 201: jsonOk(CreatedApiKey, "Created."), ...errorResponses(400, 401, 403, 409) },
});

export const registerCreateApiKey = (api: Api) =>
	api.openapi(route, async (c) => {
		const body = c.req.valid("json");
		const workspaceId = resolveManagedWorkspace(c.get("principal"), body.workspaceId);
		const key = `${API_KEY_PREFIX}${base64UrlEncode(crypto.getRandomValues(new Uint8Array(24)))}`;
		const db = getDb(c.env);
		const row = await createKeyWithin(db, MAX_KEYS_PER_WORKSPACE, {
			id: newId("key"),
			workspaceId,
			name: body.name,
			keyHash: await sha256Hex(key),
			prefix: key.slice(0, 12),
		});
		if (!row) {
			const used = await activeKeyCount(db, workspaceId);
			throw new ApiError(
				"quota_exceeded",
				`The workspace has ${used} API keys (at most ${MAX_KEYS_PER_WORKSPACE}); revoke one (DELETE /api/api-keys/{id}) to mint another.`,
				{ limit: MAX_KEYS_PER_WORKSPACE, used },
			);
		}
		return c.json({ ...keyView(row), key }, 201);
	});
