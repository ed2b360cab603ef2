/** The config's time frame as seconds of a source: what is transcribed, charged and ranked. */
import type { ConfigShape } from "./config-options.ts";

/** Seconds of the source the config covers: the time frame clamped to the video's duration. */
export function frameOf(
	config: Pick<ConfigShape, "timeframeStart" | "timeframeEnd"> | null,
	duration: number,
): { start: number; end: number } {
	const start = Math.min(config?.timeframeStart ?? 0, duration);
	const end = Math.min(config?.timeframeEnd ?? duration, duration);
	return { start, end: Math.max(start, end) };
}
