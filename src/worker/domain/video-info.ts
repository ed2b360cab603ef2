/**
 * What a probe says about a source (title, channel, thumbnail, platform id) comes from whoever
 * serves the source: bounded before it is stored, and again when served (rows stored before the
 * bound), so no one can make every list, status poll and webhook carry megabytes of their text.
 */
export const PROBE_TEXT_LIMITS = { title: 300, channelName: 200, sourceVideoId: 200, thumbnail: 2048 } as const;

/**
 * Control characters become spaces, then the text is cut to `max` characters (whole code points,
 * so no half surrogate pair), with "…" when something was cut.
 * @example boundedText("a\u0000b".repeat(500), 5) // "a b a…"
 */
export function boundedText(text: string, max: number): string {
	// eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
	const clean = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, " ").trim();
	const points = Array.from(clean);
	return points.length <= max
		? clean
		: `${points
				.slice(0, max - 1)
				.join("")
				.trimEnd()}…`;
}

/** A thumbnail is shown as an image: only an http(s) URL within the bound, else none. */
export function boundedThumbnail(url: string): string {
	if (url.length > PROBE_TEXT_LIMITS.thumbnail || !/^https?:\/\//i.test(url)) return "";
	return url;
}

export function boundedProbe<T extends { title: string; channelName: string; id: string; thumbnail: string }>(
	info: T,
): T {
	return {
		...info,
		title: boundedText(info.title, PROBE_TEXT_LIMITS.title),
		channelName: boundedText(info.channelName, PROBE_TEXT_LIMITS.channelName),
		id: boundedText(info.id, PROBE_TEXT_LIMITS.sourceVideoId),
		thumbnail: boundedThumbnail(info.thumbnail),
	};
}
