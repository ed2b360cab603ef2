/** POST /api/api-keys: a new key for a workspace (its owner or an admin, signed in); the key is shown once. */
import { createRoute } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import type { Api } from "../../../env";
import { createKey } from "../../../db/access";
import { API_KEY_PREFIX, resolveManagedWorkspace } from "../../../middleware/auth";
import { base64UrlEncode, newId, sha256Hex } from "../../../services/crypto";
import { errorResponses, jsonBody, jsonOk, SESSION_ONLY } from "../../openapi";
import { CreateApiKeyBody, CreatedApiKey, keyView } from "./schemas";

const route = createRoute({
	method: "post",
	path: "/api-keys",
	tags: ["api-keys"],
	summary: "Create an API key for a workspace (its owner or an admin, signed in); the key is shown once",
	security: SESSION_ONLY,
	request: { body: jsonBody(CreateApiKeyBody) },
	responses: { 201: jsonOk(CreatedApiKey, "Created."), ...errorResponses(400, 401, 403) },
});

export const registerCreateApiKey = (api: Api) =>
	api.openapi(route, async (c) => {
		const body = c.req.valid("json");
		const workspaceId = resolveManagedWorkspace(c.get("principal"), body.workspaceId);
		const key = `${API_KEY_PREFIX}${base64UrlEncode(crypto.getRandomValues(new Uint8Array(24)))}`;
		const row = await createKey(getDb(c.env), {
			id: newId("key"),
			workspaceId,
			name: body.name,
			keyHash: await sha256Hex(key),
			prefix: key.slice(0, 12),
		});
		return c.json({ ...keyView(row), key }, 201);
	});
