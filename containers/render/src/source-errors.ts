/**
 * One answer for every way a source can fail to be fetched, so error text is no port-scan oracle:
 * a refused, reset or timed-out connection, an address the egress proxy refused (403 from it), a
 * DNS failure and an HTTP error status from the source all read "The source could not be fetched."
 * with the code `unsupported_source`. Whether a retry may help (5xx, timeouts, resets) is decided
 * here and only travels in `retryable`, which the Worker uses to retry, never to word the error.
 */
import { TierError } from "./runtime/tier-error.ts";

export const SOURCE_NOT_FETCHED = "The source could not be fetched.";

export function sourceNotFetched(retryable: boolean): TierError {
	return new TierError("unsupported_source", SOURCE_NOT_FETCHED, retryable, 422);
}

/** HTTP statuses as yt-dlp (`HTTP Error 404`, `Tunnel connection failed: 403`) and ffmpeg (`Server returned 404`, `HTTP error 502`) print them. */
const HTTP_STATUS =
	/HTTP Error (\d{3})|Tunnel connection failed: (\d{3})|Server returned (\d{3}|[45]XX)|HTTP error (\d{3})/i;
/** Connection-level failures, as Python (yt-dlp) and ffmpeg word them. */
const NETWORK =
	/Connection refused|Connection reset|timed out|Timeout|Name or service not known|Temporary failure in name resolution|getaddrinfo|Failed to resolve hostname|Network is unreachable|No route to host|Remote end closed|RemoteDisconnected|EOF occurred|urlopen error|Unable to connect to proxy|Tunnel connection failed|Connection aborted|Broken pipe/i;

/**
 * The fetch failure a tool's stderr shows, or null when it failed for another reason (nothing
 * playable, a live stream …). A 4xx is permanent; a 5xx and a network failure may pass.
 * @example fetchFailureIn("ERROR: … HTTP Error 404: Not Found") // sourceNotFetched(false)
 */
export function fetchFailureIn(stderr: string): TierError | null {
	const http = HTTP_STATUS.exec(stderr);
	if (http) {
		const status = http.slice(1).find(Boolean)!;
		return sourceNotFetched(status.startsWith("5"));
	}
	if (NETWORK.test(stderr)) return sourceNotFetched(true);
	return null;
}
