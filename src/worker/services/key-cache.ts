/**
 * Verified API keys, cached at the edge so a status poll needs no D1 read to authenticate: first
 * in this isolate (a small LRU), then in the colo's Cache API; D1 (the primary) only on a miss.
 *
 * Revocation: each entry remembers when its D1 read began (`loadedAt`), and the colo keeps one
 * revocation mark, the time of its latest revoke. An entry loaded before the mark is not trusted.
 * So in the revoking colo a revoked key is refused at once by the revoking isolate and within
 * REVOCATION_CHECK_MS by its other isolates (each re-reads the mark at most that often), including
 * an entry that a request which read D1 before the revoke puts back after it. Elsewhere the key's
 * cached entries expire within KEY_CACHE_SECONDS. Unknown keys are remembered briefly too, so a
 * flood of bad keys does not become a flood of D1 reads.
 */
export interface VerifiedKey {
	id: string;
	workspaceId: string;
	lastUsedAt: string | null;
}

/** How long a verified key is trusted without asking D1: the bound on revocation in other colos. */
export const KEY_CACHE_SECONDS = 60;
/** How often an isolate re-reads its colo's revocation mark: the bound on revocation in the revoking colo. */
export const REVOCATION_CHECK_MS = 1000;
const UNKNOWN_KEY_SECONDS = 10;
const ISOLATE_ENTRIES = 2000;
/** The Cache API needs a URL; these never leave the colo's cache. */
const cacheUrl = (keyHash: string) => `https://api-key-cache.clipforge.invalid/${keyHash}`;
const REVOCATION_URL = "https://api-key-cache.clipforge.invalid/revoked-at";

interface Entry {
	key: VerifiedKey | null;
	/** When the D1 read behind it began (ms). */
	loadedAt: number;
	expires: number;
}

const isolate = new Map<string, Entry>();
/** The colo's revocation mark as this isolate last read it, and when it read it. */
const mark = { revokedAt: 0, readAt: Number.NEGATIVE_INFINITY };

export async function verifiedKey(
	keyHash: string,
	load: () => Promise<VerifiedKey | null | undefined>,
	inBackground: (work: Promise<unknown>) => void,
): Promise<VerifiedKey | null> {
	const now = Date.now();
	const revokedAt = await coloRevokedAt(now);
	const trusted = (entry: Entry | undefined) =>
		entry !== undefined && entry.expires > now && (entry.key === null || entry.loadedAt > revokedAt);
	const near = isolate.get(keyHash);
	if (trusted(near)) {
		remember(keyHash, near!); // refreshes its place in the LRU order
		return near!.key;
	}
	const cache = edgeCache();
	const stored = cache ? await cache.match(cacheUrl(keyHash)) : undefined;
	if (stored) {
		const entry = (await stored.json()) as Entry;
		if (trusted(entry)) {
			remember(keyHash, entry);
			return entry.key;
		}
	}
	const key = (await load()) ?? null;
	const seconds = key ? KEY_CACHE_SECONDS : UNKNOWN_KEY_SECONDS;
	const entry: Entry = { key, loadedAt: now, expires: now + seconds * 1000 };
	remember(keyHash, entry);
	if (cache) {
		const response = Response.json(entry, { headers: { "cache-control": `max-age=${seconds}` } });
		inBackground(cache.put(cacheUrl(keyHash), response).catch(() => undefined));
	}
	return key;
}

/** After a key's `lastUsedAt` was stamped: this isolate need not stamp it again soon. */
export function noteKeyUsed(keyHash: string, at: string): void {
	const entry = isolate.get(keyHash);
	if (entry?.key) entry.key = { ...entry.key, lastUsedAt: at };
}

/**
 * A key was revoked (call after the D1 write): gone from this isolate and this colo's cache, and
 * the colo's revocation mark moves to now, so no entry loaded before the revoke is trusted here.
 */
export async function forgetKey(keyHash: string): Promise<void> {
	const now = Date.now();
	isolate.delete(keyHash);
	mark.revokedAt = Math.max(mark.revokedAt, now);
	mark.readAt = now;
	const cache = edgeCache();
	if (!cache) return;
	// The mark must outlive every entry loaded before it (they live KEY_CACHE_SECONDS).
	const seconds = KEY_CACHE_SECONDS * 2;
	await Promise.all([
		cache.delete(cacheUrl(keyHash)),
		cache.put(
			REVOCATION_URL,
			Response.json({ revokedAt: mark.revokedAt }, { headers: { "cache-control": `max-age=${seconds}` } }),
		),
	]);
}

/** The colo's latest revocation time, read from its cache at most every REVOCATION_CHECK_MS. */
async function coloRevokedAt(now: number): Promise<number> {
	if (now - mark.readAt < REVOCATION_CHECK_MS) return mark.revokedAt;
	const stored = await edgeCache()?.match(REVOCATION_URL);
	const revokedAt = stored ? ((await stored.json()) as { revokedAt: number }).revokedAt : 0;
	mark.revokedAt = Math.max(mark.revokedAt, revokedAt);
	mark.readAt = now;
	return mark.revokedAt;
}

function remember(keyHash: string, entry: Entry): void {
	isolate.delete(keyHash);
	isolate.set(keyHash, entry);
	if (isolate.size > ISOLATE_ENTRIES) isolate.delete(isolate.keys().next().value!);
}

/** The colo's default cache, where the runtime has one (Workers and workerd do). */
function edgeCache(): Cache | undefined {
	return (globalThis as { caches?: { default?: Cache } }).caches?.default;
}
