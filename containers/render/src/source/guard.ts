import { isIP } from "node:net";
import { egressFetch } from "../egress/fetch.ts";
import { checkedAddresses, EgressRefusedError } from "../egress/policy.ts";
import { sourceNotFetched } from "./errors.ts";
import { allowPrivateSources } from "../egress/policy.ts";
import { TierError } from "../runtime/tier-error.ts";

/**
 * The early, friendly check of a source before yt-dlp or ffprobe touch it: a URL whose host is a
 * local name, or is or resolves to a non-public address (the egress policy), is refused with `invalid_url` (unless the operator set
 * ALLOW_PRIVATE_SOURCES=true, dev and tests). It is not what keeps the tools off private addresses:
 * the egress proxy checks every connection they open, at connect time (egress/proxy.ts).
 */
export async function assertFetchableSource(rawUrl: string): Promise<void> {
	const url = new URL(rawUrl);
	if (url.protocol !== "http:" && url.protocol !== "https:") {
		throw new TierError("invalid_url", "Only http and https sources can be fetched.", false, 400);
	}
	if (allowPrivateSources()) return;
	try {
		await checkedAddresses(url.hostname);
	} catch (error) {
		if (!(error instanceof EgressRefusedError)) throw sourceNotFetched(false);
		const literal = isIP(url.hostname.replace(/^\[(.*)\]$/, "$1")) !== 0;
		throw new TierError(
			"invalid_url",
			`The host ${url.hostname} ${literal ? "is not a public address" : "resolves to a private address"}.`,
			false,
			400,
		);
	}
}

const MAX_REDIRECTS = 5;

/**
 * Follows the source's redirects one hop at a time, checking every hop with `check` (by default
 * the address policy above), and returns the final URL for yt-dlp and ffprobe. So a public URL
 * that redirects to a private or metadata address is refused with a clear error before any tool
 * runs. Its own requests go through the pinned egress agent, so they are checked at connect time too.
 */
export async function resolveSource(
	rawUrl: string,
	check: (url: string) => Promise<void> = assertFetchableSource,
): Promise<string> {
	let current = rawUrl;
	for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
		await check(current);
		if (allowPrivateSources() && check === assertFetchableSource) return current;
		let status: number;
		let location: string | null;
		try {
			const response = await egressFetch(current, {
				method: "GET",
				redirect: "manual",
				headers: { range: "bytes=0-0" },
				signal: AbortSignal.timeout(10_000),
			});
			await response.body?.cancel();
			status = response.status;
			location = response.headers.get("location");
		} catch (error) {
			if ((error as Error).cause instanceof EgressRefusedError) {
				throw new TierError(
					"invalid_url",
					`The host ${new URL(current).hostname} resolves to a private address.`,
					false,
					400,
				);
			}
			throw sourceNotFetched(true);
		}
		if (status < 300 || status >= 400 || !location) return current;
		current = new URL(location, current).toString();
	}
	throw new TierError("unsupported_source", `The source redirects more than ${MAX_REDIRECTS} times.`, false, 422);
}
