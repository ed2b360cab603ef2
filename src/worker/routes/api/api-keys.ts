/**
 * /api/api-keys and /api/api-keys/{id}: key management, for signed-in users only. Minting and
 * revoking take the workspace's owner or an admin (a member gets 403 `forbidden`); any member may
 * list them (names and prefixes, never the keys).
 */
import { createRoute, z } from "@hono/zod-openapi";
import { createKey, findKey, keysOf, revokeKey, type ApiKeyRow } from "../../db/access";
import { getDb } from "../../db/client";
import type { Api } from "../../env";
import { ApiError } from "../../errors";
import { API_KEY_PREFIX, assertManager, requireSession, resolveManagedWorkspace, workspaceScope } from "../../middleware/auth";
import { base64UrlEncode, newId, sha256Hex } from "../../services/crypto";
import { forgetKey } from "../../services/key-cache";
import { errorResponses, jsonBody, jsonOk, SESSION_ONLY } from "../openapi";

const ApiKey = z
	.object({
		id: z.string(),
		name: z.string(),
		workspaceId: z.string(),
		prefix: z.string(),
		createdAt: z.string(),
		lastUsedAt: z.string().nullable().openapi({ description: "When the key last authenticated a request, to within 5 minutes; null if never." }),
		revokedAt: z.string().nullable(),
	})
	.openapi("ApiKey");
const CreatedApiKey = ApiKey.extend({ key: z.string().openapi({ description: "The key itself. Shown once; only its SHA-256 is stored.", example: "cf_live_…" }) }).openapi("CreatedApiKey");
const CreateApiKeyBody = z.strictObject({ workspaceId: z.string().min(1).max(64), name: z.string().trim().min(1).max(100) }).openapi("CreateApiKey");

const createKeyRoute = createRoute({
	method: "post",
	path: "/api-keys",
	tags: ["api-keys"],
	summary: "Create an API key for a workspace (its owner or an admin, signed in); the key is shown once",
	security: SESSION_ONLY,
	request: { body: jsonBody(CreateApiKeyBody) },
	responses: { 201: jsonOk(CreatedApiKey, "Created."), ...errorResponses(400, 401, 403) },
});
const listKeysRoute = createRoute({
	method: "get",
	path: "/api-keys",
	tags: ["api-keys"],
	summary: "List the API keys of your workspaces (never the keys themselves)",
	security: SESSION_ONLY,
	request: { query: z.object({ workspaceId: z.string().optional() }) },
	responses: { 200: jsonOk(z.object({ apiKeys: z.array(ApiKey) }), "Keys, newest first."), ...errorResponses(401, 403) },
});
const revokeKeyRoute = createRoute({
	method: "delete",
	path: "/api-keys/{id}",
	tags: ["api-keys"],
	summary: "Revoke an API key (its workspace's owner or an admin): requests with it get 401 (at once where revoked, within 60 s everywhere)",
	security: SESSION_ONLY,
	request: { params: z.object({ id: z.string().min(1).max(64) }) },
	responses: { 200: jsonOk(ApiKey, "Revoked."), ...errorResponses(401, 403, 404) },
});

const view = (row: ApiKeyRow) => ({ id: row.id, name: row.name, workspaceId: row.workspaceId, prefix: row.prefix, createdAt: row.createdAt, lastUsedAt: row.lastUsedAt, revokedAt: row.revokedAt });

export function registerApiKeys(api: Api) {
	// `/x/*` also matches `/x` itself.
	api.use("/api-keys/*", requireSession);
	api.openapi(createKeyRoute, async (c) => {
		const body = c.req.valid("json");
		const workspaceId = resolveManagedWorkspace(c.get("principal"), body.workspaceId);
		const key = `${API_KEY_PREFIX}${base64UrlEncode(crypto.getRandomValues(new Uint8Array(24)))}`;
		const row = await createKey(getDb(c.env), { id: newId("key"), workspaceId, name: body.name, keyHash: await sha256Hex(key), prefix: key.slice(0, 12) });
		return c.json({ ...view(row), key }, 201);
	});
	api.openapi(listKeysRoute, async (c) => {
		const { workspaceId } = c.req.valid("query");
		const rows = await keysOf(getDb(c.env), workspaceScope(c.get("principal"), workspaceId));
		return c.json({ apiKeys: rows.map(view) }, 200);
	});
	api.openapi(revokeKeyRoute, async (c) => {
		const { id } = c.req.valid("param");
		const principal = c.get("principal");
		const db = getDb(c.env);
		const key = await findKey(db, id, principal.workspaceIds);
		if (!key) throw new ApiError("not_found", `API key ${id} was not found.`);
		assertManager(principal, key.workspaceId);
		const row = await revokeKey(db, id, [key.workspaceId]);
		// Refused at once here; other colos' cached verifications expire within KEY_CACHE_SECONDS.
		await forgetKey(row!.keyHash);
		return c.json(view(row!), 200);
	});
}
