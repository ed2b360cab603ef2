/** The schemas of /api/api-keys, and how a key is shown (never the key itself, but once). */
import { z } from "@hono/zod-openapi";
import type { ApiKeyRow } from "../../../db/access";

export const ApiKey = z
	.object({
		id: z.string(),
		name: z.string(),
		workspaceId: z.string(),
		prefix: z.string(),
		createdAt: z.string(),
		lastUsedAt: z
			.string()
			.nullable()
			.openapi({ description: "When the key last authenticated a request, to within 5 minutes; null if never." }),
		revokedAt: z.string().nullable(),
	})
	.openapi("ApiKey");
export const CreatedApiKey = ApiKey.extend({
	key: z
		.string()
		.openapi({ description: "The key itself. Shown once; only its SHA-256 is stored.", example: "cf_live_…" }),
}).openapi("CreatedApiKey");
export const CreateApiKeyBody = z
	.strictObject({ workspaceId: z.string().min(1).max(64), name: z.string().trim().min(1).max(100) })
	.openapi("CreateApiKey");

export const keyView = (row: ApiKeyRow) => ({
	id: row.id,
	name: row.name,
	workspaceId: row.workspaceId,
	prefix: row.prefix,
	createdAt: row.createdAt,
	lastUsedAt: row.lastUsedAt,
	revokedAt: row.revokedAt,
});
