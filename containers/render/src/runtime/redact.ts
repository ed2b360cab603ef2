/**
 * Keeps signed URLs out of error text. ffmpeg prints its input URL on failure (the Worker's
 * `?exp=…&sig=…` included), yt-dlp its page and format URLs; whatever a tool prints passes through
 * here before it can become a message that leaves the tier.
 */

/** scheme://[userinfo@]host[path][?query][#fragment], up to whitespace or a quote. */
const URL_PATTERN =
	/\b([a-z][a-z0-9+.-]*:\/\/)(?:[^\s/?#@'"<>]*@)?([^\s/?#'"<>]*)([^\s?#'"<>]*)((?:\?[^\s#'"<>]*)?(?:#[^\s'"<>]*)?)/gi;
/** Punctuation that ends a sentence rather than the URL (`…/a.mp4?sig=x: Server returned 403`). */
const TRAILING = /[:;,.)]+$/;
/** A query string outside a full URL (yt-dlp names a direct file by its last path segment, `a.mp4?sig=…`). */
const BARE_QUERY = /\?[^\s'"<>?]*=[^\s'"<>]*/g;

/**
 * `text` with every URL's credentials, query string and fragment removed.
 * @example redactUrls("https://u:p@x.test/a.mp4?sig=abc: 403") // "https://x.test/a.mp4: 403"
 */
export function redactUrls(text: string): string {
	return text
		.replace(
			URL_PATTERN,
			(_url, scheme: string, host: string, path: string, rest: string) =>
				`${scheme}${host}${path}${TRAILING.exec(rest)?.[0] ?? ""}`,
		)
		.replace(BARE_QUERY, (query: string) => TRAILING.exec(query)?.[0] ?? "");
}
