/** What every group of calls (videos, clips, uploads, caption templates) is built on. */
import type { Client } from "openapi-fetch";
import type { paths } from "../api-types.ts";
import type { ClipFilters } from "../client-types.ts";

export interface CallContext {
	/** openapi-fetch over the API's `paths`, sending through the retrying transport. */
	api: Client<paths>;
	/** The fetch of the client's options, for URLs that are not API paths (signed part URLs). */
	doFetch: typeof fetch;
	maxAttempts: number;
}

/** The body of a call the transport let through (it throws on anything but a 2xx). */
export const body = async <T>(call: Promise<{ data?: T }>): Promise<T> => (await call).data as T;

/** `{ path: { id } }`: a route's `{id}`. */
export const pathId = (id: string) => ({ path: { id } });

/** The query string form of the filters (`favorited` as "true"/"false"). */
export const filterQuery = <Q extends ClipFilters>(query: Q) => ({
	...query,
	favorited: query.favorited === undefined ? undefined : (String(query.favorited) as "true" | "false"),
});

/** A fresh Idempotency-Key for one `submit` call (visible ASCII, as the API wants). */
export function newIdempotencyKey(): string {
	return `sdk-${crypto.randomUUID()}`;
}
