/** DELETE /api/api-keys/{id}: revokes a key (its workspace's owner or an admin): refused at once where revoked, within 60 s everywhere. */
import { createRoute, z } from "@hono/zod-openapi";
import { getDb } from "../../../db/client";
import type { Api } from "../../../env";
import { findKey, revokeKey } from "../../../db/access";
import { ApiError } from "../../../errors";
import { assertManager } from "../../../middleware/auth";
import { forgetKey } from "../../../services/key-cache";
import { errorResponses, jsonOk, SESSION_ONLY } from "../../openapi";
import { ApiKey, keyView } from "./schemas";

const route = createRoute({
	method: "delete",
	path: "/api-keys/{id}",
	tags: ["api-keys"],
	summary:
		"Revoke an API key (its workspace's owner or an admin): requests with it get 401 (at once where revoked, within 60 s everywhere)",
	security: SESSION_ONLY,
	request: { params: z.object({ id: z.string().min(1).max(64) }) },
	responses: { 200: jsonOk(ApiKey, "Revoked."), ...errorResponses(401, 403, 404) },
});

export const registerRevokeApiKey = (api: Api) =>
	api.openapi(route, async (c) => {
		const { id } = c.req.valid("param");
		const principal = c.get("principal");
		const db = getDb(c.env);
		const key = await findKey(db, id, principal.workspaceIds);
		if (!key) throw new ApiError("not_found", `API key ${id} was not found.`);
		assertManager(principal, key.workspaceId);
		const row = await revokeKey(db, id, [key.workspaceId]);
		// Refused at once here; other colos' cached verifications expire within KEY_CACHE_SECONDS.
		await forgetKey(row!.keyHash);
		return c.json(keyView(row!), 200);
	});
