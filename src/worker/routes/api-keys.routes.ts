import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { and, desc, eq, inArray, isNull } from "drizzle-orm";
import { getDb } from "../db/client";
import { apiKeys } from "../db/schema";
import type { AppEnv } from "../env";
import { ApiError, handleZodError } from "../errors";
import { API_KEY_PREFIX, requireSession, resolveWorkspace, workspaceScope } from "../middleware/auth";
import { base64UrlEncode, newId, sha256Hex } from "../services/crypto";
import { errorResponses, jsonBody, jsonOk, SESSION_ONLY } from "./openapi";

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
	path: "/",
	tags: ["api-keys"],
	summary: "Create an API key for a workspace (signed-in users only); the key is shown once",
	security: SESSION_ONLY,
	request: { body: jsonBody(CreateApiKeyBody) },
	responses: { 201: jsonOk(CreatedApiKey, "Created."), ...errorResponses(400, 401, 403) },
});
const listKeysRoute = createRoute({
	method: "get",
	path: "/",
	tags: ["api-keys"],
	summary: "List the API keys of your workspaces (never the keys themselves)",
	security: SESSION_ONLY,
	request: { query: z.object({ workspaceId: z.string().optional() }) },
	responses: { 200: jsonOk(z.object({ apiKeys: z.array(ApiKey) }), "Keys, newest first."), ...errorResponses(401, 403) },
});
const revokeKeyRoute = createRoute({
	method: "delete",
	path: "/{id}",
	tags: ["api-keys"],
	summary: "Revoke an API key: requests with it get 401 at once",
	security: SESSION_ONLY,
	request: { params: z.object({ id: z.string().min(1).max(64) }) },
	responses: { 200: jsonOk(ApiKey, "Revoked."), ...errorResponses(401, 403, 404) },
});

type KeyRow = typeof apiKeys.$inferSelect;
const view = (row: KeyRow) => ({ id: row.id, name: row.name, workspaceId: row.workspaceId, prefix: row.prefix, createdAt: row.createdAt, lastUsedAt: row.lastUsedAt, revokedAt: row.revokedAt });

export const apiKeyRoutes = new OpenAPIHono<AppEnv>({ defaultHook: handleZodError });
apiKeyRoutes.use("*", requireSession);
apiKeyRoutes
	.openapi(createKeyRoute, async (c) => {
		const body = c.req.valid("json");
		const workspaceId = resolveWorkspace(c.get("principal"), body.workspaceId);
		const key = `${API_KEY_PREFIX}${base64UrlEncode(crypto.getRandomValues(new Uint8Array(24)))}`;
		const row = await getDb(c.env)
			.insert(apiKeys)
			.values({ id: newId("key"), workspaceId, name: body.name, keyHash: await sha256Hex(key), prefix: key.slice(0, 12) })
			.returning()
			.get();
		return c.json({ ...view(row), key }, 201);
	})
	.openapi(listKeysRoute, async (c) => {
		const { workspaceId } = c.req.valid("query");
		const principal = c.get("principal");
		const rows = await getDb(c.env)
			.select()
			.from(apiKeys)
			.where(inArray(apiKeys.workspaceId, workspaceScope(principal, workspaceId)))
			.orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
			.all();
		return c.json({ apiKeys: rows.map(view) }, 200);
	})
	.openapi(revokeKeyRoute, async (c) => {
		const { id } = c.req.valid("param");
		const db = getDb(c.env);
		const scope = and(eq(apiKeys.id, id), inArray(apiKeys.workspaceId, c.get("principal").workspaceIds));
		await db.update(apiKeys).set({ revokedAt: new Date().toISOString() }).where(and(scope, isNull(apiKeys.revokedAt)));
		const row = await db.select().from(apiKeys).where(scope).get();
		if (!row) throw new ApiError("not_found", `API key ${id} was not found.`);
		return c.json(view(row), 200);
	});
