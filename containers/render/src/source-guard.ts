import { lookup } from "node:dns/promises";
import { isLocalHostname, isPrivateAddress } from "./address-policy.ts";
import { allowPrivateSources } from "./tool-paths.ts";
import { TierError } from "./tier-error.ts";

/**
 * Refuses a source whose host is, or resolves to, a private/loopback/metadata address, unless the
 * operator set ALLOW_PRIVATE_SOURCES=true (dev and tests). Runs before yt-dlp or ffprobe touch it.
 */
export async function assertFetchableSource(rawUrl: string): Promise<void> {
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
		addresses = await lookup(host, { all: true });
	} catch {
		throw new TierError("unsupported_source", `The host ${url.hostname} could not be resolved.`, false, 422);
	}
	if (addresses.some((a) => isPrivateAddress(a.address))) {
		throw new TierError("invalid_url", `The host ${url.hostname} resolves to a private address.`, false, 400);
	}
}
