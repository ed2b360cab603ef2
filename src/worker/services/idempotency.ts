/**
 * `Idempotency-Key` for POST /api/videos/hosted. The first request with a key reserves it (a
 * unique row); its 201 is stored and replayed for 24 h to the same key with the same body, so a
 * retried submission is charged once. The same key with another body, or while the first request
 * is still running, is a 409. A first request that fails frees the key: nothing was charged, and
 * the client may retry with it.
 */
import type { Db } from "../db/client";
import { freeKey, reserveKey, storedResponse, storeResponse } from "../db/idempotency";
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
	db: Db,
	workspaceId: string,
	key: string | undefined,
	request: unknown,
	run: () => Promise<{ status: number; body: unknown }>,
): Promise<StoredResponse> {
	if (key === undefined) return { ...(await run()), replayed: false };
	if (!KEY_PATTERN.test(key)) {
		throw new ApiError("invalid_request", "The request is invalid.", [
			{ path: "Idempotency-Key", message: "1-255 visible ASCII characters" },
		]);
	}
	const requestHash = await sha256Hex(JSON.stringify(request));
	const cutoff = new Date(Date.now() - IDEMPOTENCY_TTL_SECONDS * 1000).toISOString();
	if (!(await reserveKey(db, workspaceId, key, requestHash, cutoff))) {
		const first = await storedResponse(db, workspaceId, key);
		if (!first || first.hash !== requestHash)
			throw new ApiError("conflict", "This Idempotency-Key was already used with a different request body.");
		if (first.status === null || first.body === null)
			throw new ApiError(
				"conflict",
				"A request with this Idempotency-Key is still being processed; retry shortly.",
			);
		return { status: first.status, body: JSON.parse(first.body), replayed: true };
	}
	try {
		const response = await run();
		await storeResponse(db, workspaceId, key, response.status, JSON.stringify(response.body));
		return { ...response, replayed: false };
	} catch (error) {
		await freeKey(db, workspaceId, key);
		throw error;
	}
}
