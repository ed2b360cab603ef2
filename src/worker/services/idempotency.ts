/**
 * `Idempotency-Key` for POST /api/videos/hosted. The first request with a key reserves it (a
 * unique row); its 201 is stored and replayed for 24 h to the same key with the same body, so a
 * retried submission is charged once. The same key with another body, or while the first request
 * is still running, is a 409. A first request that fails frees the key: nothing was charged, and
 * the client may retry with it. A reservation never answered for IDEMPOTENCY_ABANDONED_SECONDS is
 * taken over by the next request (its first died: a D1 answer lost after the row was written, an
 * isolate gone), so a key is never refused for its 24 h; a response whose storing fails is
 * tried again (the same UPDATE), and its key is not freed, since the video exists.
 *
 * A reservation can be taken over, or freed, only while it names no video: the batch that creates
 * and charges the video also writes its id on the key (`submission()` carries the key to
 * createChargedVideo), so once a video exists every request with the key answers with that video,
 * built again when its first answer was never stored, and none makes a second.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Db } from "../db/client";
import { retryWrite } from "../db/d1-retry";
import { freeKey, reserveKey, storedResponse, storeResponse } from "../db/idempotency";
import { ApiError } from "../errors";
import { sha256Hex } from "./crypto";

export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/** Longer than any submission takes to answer (its probe of the source has 30 s). */
export const IDEMPOTENCY_ABANDONED_SECONDS = 120;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** The submission in progress under a key: the key, and the video an earlier request with it made. */
export interface KeyedSubmission {
	key: string;
	videoId: string | null;
}
// Through the submission's own call chain (the route's handler runs `run` inside it), so that
// services/submit-video.ts reaches the key without every layer between passing it on.
const current = new AsyncLocalStorage<KeyedSubmission>();

/** The Idempotency-Key of the submission running now, if it has one. */
export const keyedSubmission = (): KeyedSubmission | null => current.getStore() ?? null;

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
	const abandonedCutoff = new Date(Date.now() - IDEMPOTENCY_ABANDONED_SECONDS * 1000).toISOString();
	if (!(await reserveKey(db, workspaceId, key, requestHash, cutoff, abandonedCutoff))) {
		const first = await storedResponse(db, workspaceId, key);
		if (!first || first.hash !== requestHash)
			throw new ApiError("conflict", "This Idempotency-Key was already used with a different request body.");
		if (first.status !== null && first.body !== null)
			return { status: first.status, body: JSON.parse(first.body), replayed: true };
		if (first.videoId === null)
			throw new ApiError(
				"conflict",
				"A request with this Idempotency-Key is still being processed; retry shortly.",
			);
		// Its video exists and its answer was never stored: the answer, about that video.
		return { ...(await answer(db, workspaceId, key, first.videoId, run)), replayed: true };
	}
	return { ...(await answer(db, workspaceId, key, null, run)), replayed: false };
}

/** Runs the submission under its key, then stores its answer; on failure frees the key if no video was made. */
async function answer(
	db: Db,
	workspaceId: string,
	key: string,
	videoId: string | null,
	run: () => Promise<{ status: number; body: unknown }>,
): Promise<{ status: number; body: unknown }> {
	let response: { status: number; body: unknown };
	try {
		response = await current.run({ key, videoId }, run);
	} catch (error) {
		// Freeing may fail too (D1 down): the reservation is then taken over once abandoned.
		await freeKey(db, workspaceId, key).catch(() => undefined);
		throw error;
	}
	// Setting the same response twice is harmless: retried without asking whether it landed.
	const body = JSON.stringify(response.body);
	await retryWrite(
		() => storeResponse(db, workspaceId, key, response.status, body),
		async () => undefined,
	);
	return response;
}
