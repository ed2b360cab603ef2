import { and, eq, isNull } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import { getDb } from "../db/client";
import { apiKeys } from "../db/schema";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { sha256Hex } from "../services/crypto";

export const API_KEY_PREFIX = "cf_live_";
const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Resolves `Authorization: Bearer cf_live_…` to its workspace; anything else is a 401. */
export const apiKeyAuth = createMiddleware<AppEnv>(async (c, next) => {
	const header = c.req.header("authorization");
	if (!header) throw new ApiError("unauthorized", "Send an API key as `Authorization: Bearer <API_KEY>`.");
	const token = BEARER.exec(header)?.[1];
	if (!token || !token.startsWith(API_KEY_PREFIX)) {
		throw new ApiError("unauthorized", "The Authorization header must be `Bearer cf_live_…`.");
	}
	const db = getDb(c.env);
	const keyHash = await sha256Hex(token);
	const key = await db
		.select({ id: apiKeys.id, workspaceId: apiKeys.workspaceId })
		.from(apiKeys)
		.where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)))
		.get();
	if (!key) throw new ApiError("unauthorized", "The API key is unknown or revoked.");
	c.set("principal", { kind: "api_key", apiKeyId: key.id, workspaceId: key.workspaceId });
	await next();
});
