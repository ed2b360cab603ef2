import { lookup } from "node:dns/promises";
import { isLocalHostname, isPrivateAddress } from "@clipforge/contract";
import { allowPrivateSources } from "./tool-paths.ts";
import { TierError } from "./tier-error.ts";

/**
 * Refuses a source whose host is, or resolves to, a private/loopback/metadata address, unless the
 * operator set ALLOW_PRIVATE_SOURCES=true (dev and tests). Runs before yt-dlp or ffprobe touch it.
 */
type Lookup = (host: string, options: { all: true }) => Promise<{ address: string }[]>;

export async function assertFetchableSource(rawUrl: string, resolve: Lookup = lookup): Promise<void> {
	const url = new URL(rawUrl);
	if (url.protocol !== "http:" && url.protocol !== "https:") {
		throw new TierError("invalid_url", "Only http and https sources can be fetched.", false, 400);
	}
	if (allowPrivateSources()) return;
	const host = url.hostname.replace(/^\[|\]$/g, "");
	if (isLocalHostname(host) || isPrivateAddress(host)) {
		throw new TierError("invalid_url", `The host ${url.hostname} is not a public address.`, false, 400);
	}
	let addresses: { address: string }[];
	try {
		addresses = await resolve(host, { all: true });
	} catch {
		throw new TierError("unsupported_source", `The host ${url.hostname} could not be resolved.`, false, 422);
	}
	if (addresses.some((a) => isPrivateAddress(a.address))) {
		throw new TierError("invalid_url", `The host ${url.hostname} resolves to a private address.`, false, 400);
	}
}

const MAX_REDIRECTS = 5;

/**
 * Follows the source's redirects one hop at a time, checking every hop with `check` (by default
 * the address policy above), and returns the final URL for yt-dlp and ffprobe. So a public URL
 * that redirects to a private or metadata address is refused before any tool fetches it.
 */
export async function resolveSource(rawUrl: string, check: (url: string) => Promise<void> = assertFetchableSource): Promise<string> {
	let current = rawUrl;
	for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
		await check(current);
		if (allowPrivateSources() && check === assertFetchableSource) return current;
		let response: Response;
		try {
			response = await fetch(current, { method: "GET", redirect: "manual", headers: { range: "bytes=0-0" }, signal: AbortSignal.timeout(10_000) });
			await response.body?.cancel();
		} catch {
			throw new TierError("unsupported_source", "The source could not be reached.", false, 422);
		}
		const location = response.headers.get("location");
		if (response.status < 300 || response.status >= 400 || !location) return current;
		current = new URL(location, current).toString();
	}
	throw new TierError("unsupported_source", `The source redirects more than ${MAX_REDIRECTS} times.`, false, 422);
}
