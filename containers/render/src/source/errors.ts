/**
 * One answer for every way a source can fail to be fetched, so error text is no port-scan oracle:
 * a refused, reset or timed-out connection, an address the egress proxy refused (403 from it), a
 * DNS failure and an HTTP error status from the source all read "The source could not be fetched."
 * with the code `unsupported_source`. Whether a retry may help (5xx, timeouts, resets) is decided
 * here and only travels in `retryable`, which the Worker uses to retry, never to word the error.
 */
import { ProcessError } from "../runtime/run-process.ts";
import { TierError } from "../runtime/tier-error.ts";

export const SOURCE_NOT_FETCHED = "The source could not be fetched.";

export function sourceNotFetched(retryable: boolean): TierError {
	return new TierError("unsupported_source", SOURCE_NOT_FETCHED, retryable, 422);
}

/**
 * HTTP statuses as yt-dlp (`HTTP Error 404`, `Tunnel connection failed: 403`) and ffmpeg (`Server
 * returned 404`, `HTTP error 502`) print them.
 */
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

/**
 * Turns yt-dlp's stderr into a message a user can act on. Every way of not getting the bytes reads
 * the same (errors.ts); what the source's content was (private, removed, not a video) is
 * told as yt-dlp says it, with its URLs' query strings removed.
 */
export function ytDlpError(error: unknown): Error {
	if (!(error instanceof ProcessError) || error.reason !== "exit") return error as Error;
	const text = error.stderrTail;
	if (/confirm you.?re not a bot|Sign in to confirm/i.test(text)) {
		return new TierError(
			"unsupported_source",
			"The platform asked for a sign-in (bot check); this video cannot be fetched now.",
			false,
			422,
		);
	}
	const fetchFailure = fetchFailureIn(text);
	if (fetchFailure) return fetchFailure;
	if (/Private video|removed|unavailable|DRM|Unsupported URL/i.test(text)) {
		const line = text.split("\n").find((l) => l.startsWith("ERROR:")) ?? "no playable video";
		return new TierError("unsupported_source", line.replace(/^ERROR:\s*/, "").slice(0, 200), false, 422);
	}
	return new TierError("unsupported_source", "No playable video was found at the URL.", false, 422);
}
