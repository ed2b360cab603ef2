/**
 * `Idempotency-Key` for POST /api/videos/hosted. The first request with a key reserves it (a
 * unique row); its 201 is stored and replayed for 24 h to the same key with the same body, so a
 * retried submission is charged once. The same key with another body, or while the first request
 * is still running, is a 409. A first request that fails frees the key: nothing was charged, and
 * the client may retry with it.
 */
import { ApiError } from "../errors";
import { sha256Hex } from "./crypto";

export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export interface StoredResponse {
	status: number;
	body: unknown;
	replayed: boolean;
}

export async function withIdempotency(
	db: D1Database,
	workspaceId: string,
	key: string | undefined,
	request: unknown,
	run: () => Promise<{ status: number; body: unknown }>,
): Promise<StoredResponse> {
	if (key === undefined) return { ...(await run()), replayed: false };
	if (!KEY_PATTERN.test(key)) {
		throw new ApiError("invalid_request", "The request is invalid.", [{ path: "Idempotency-Key", message: "1-255 visible ASCII characters" }]);
	}
	const requestHash = await sha256Hex(JSON.stringify(request));
	const cutoff = new Date(Date.now() - IDEMPOTENCY_TTL_SECONDS * 1000).toISOString();
	await db.prepare("DELETE FROM idempotency_keys WHERE workspace_id = ?1 AND key = ?2 AND created_at < ?3").bind(workspaceId, key, cutoff).run();
	const reserved = await db
		.prepare("INSERT OR IGNORE INTO idempotency_keys (workspace_id, key, request_hash) VALUES (?1, ?2, ?3)")
		.bind(workspaceId, key, requestHash)
		.run();
	if (reserved.meta.changes !== 1) {
		const first = await db
			.prepare("SELECT request_hash AS hash, response_status AS status, response_body AS body FROM idempotency_keys WHERE workspace_id = ?1 AND key = ?2")
			.bind(workspaceId, key)
			.first<{ hash: string; status: number | null; body: string | null }>();
		if (!first || first.hash !== requestHash) throw new ApiError("conflict", "This Idempotency-Key was already used with a different request body.");
		if (first.status === null || first.body === null) throw new ApiError("conflict", "A request with this Idempotency-Key is still being processed; retry shortly.");
		return { status: first.status, body: JSON.parse(first.body), replayed: true };
	}
	try {
		const response = await run();
		await db
			.prepare("UPDATE idempotency_keys SET response_status = ?3, response_body = ?4 WHERE workspace_id = ?1 AND key = ?2")
			.bind(workspaceId, key, response.status, JSON.stringify(response.body))
			.run();
		return { ...response, replayed: false };
	} catch (error) {
		await db.prepare("DELETE FROM idempotency_keys WHERE workspace_id = ?1 AND key = ?2").bind(workspaceId, key).run();
		throw error;
	}
}
