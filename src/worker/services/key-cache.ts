/**
 * Verified API keys, cached at the edge so a status poll needs no D1 read to authenticate: first
 * in this isolate (a small LRU), then in the colo's Cache API; D1 only on a miss. A revoked key is
 * purged from both where it was revoked, at once; elsewhere it is refused within KEY_CACHE_SECONDS
 * (its cached entries expire). Unknown keys are remembered briefly too, so a flood of bad keys does
 * not become a flood of D1 reads.
 */
export interface VerifiedKey {
	id: string;
	workspaceId: string;
	lastUsedAt: string | null;
}

/** How long a verified key is trusted without asking D1: the bound on revocation elsewhere. */
export const KEY_CACHE_SECONDS = 60;
const UNKNOWN_KEY_SECONDS = 10;
const ISOLATE_ENTRIES = 2000;
/** The Cache API needs a URL; this one never leaves the colo's cache. */
const cacheUrl = (keyHash: string) => `https://api-key-cache.clipforge.invalid/${keyHash}`;

const isolate = new Map<string, { key: VerifiedKey | null; expires: number }>();

export async function verifiedKey(
	keyHash: string,
	load: () => Promise<VerifiedKey | null | undefined>,
	inBackground: (work: Promise<unknown>) => void,
): Promise<VerifiedKey | null> {
	const now = Date.now();
	const near = isolate.get(keyHash);
	if (near && near.expires > now) {
		// Refresh its place in the LRU order.
		isolate.delete(keyHash);
		isolate.set(keyHash, near);
		return near.key;
	}
	const cache = edgeCache();
	const stored = cache ? await cache.match(cacheUrl(keyHash)) : undefined;
	if (stored) {
		const entry = (await stored.json()) as { key: VerifiedKey | null; expires: number };
		if (entry.expires > now) {
			remember(keyHash, entry);
			return entry.key;
		}
	}
	const key = (await load()) ?? null;
	const entry = { key, expires: now + (key ? KEY_CACHE_SECONDS : UNKNOWN_KEY_SECONDS) * 1000 };
	remember(keyHash, entry);
	if (cache) {
		const seconds = key ? KEY_CACHE_SECONDS : UNKNOWN_KEY_SECONDS;
		inBackground(
			cache
				.put(cacheUrl(keyHash), Response.json(entry, { headers: { "cache-control": `max-age=${seconds}` } }))
				.catch(() => undefined),
		);
	}
	return key;
}

/** After a key's `lastUsedAt` was stamped: this isolate need not stamp it again soon. */
export function noteKeyUsed(keyHash: string, at: string): void {
	const entry = isolate.get(keyHash);
	if (entry?.key) entry.key = { ...entry.key, lastUsedAt: at };
}

/** A revoked key: gone from this isolate and this colo's cache at once. */
export async function forgetKey(keyHash: string): Promise<void> {
	isolate.delete(keyHash);
	await edgeCache()?.delete(cacheUrl(keyHash));
}

function remember(keyHash: string, entry: { key: VerifiedKey | null; expires: number }): void {
	isolate.delete(keyHash);
	isolate.set(keyHash, entry);
	if (isolate.size > ISOLATE_ENTRIES) isolate.delete(isolate.keys().next().value!);
}

/** The colo's default cache, where the runtime has one (Workers and workerd do). */
function edgeCache(): Cache | undefined {
	return (globalThis as { caches?: { default?: Cache } }).caches?.default;
}
