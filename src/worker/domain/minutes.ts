/**
 * What a video costs: `ceil(minutes in the time frame)`, at least 1, charged at submission. A video
 * that fails is refunded in full, once; one deleted before it completed too.
 */
import { frameOf, type VideoConfig } from "./video-config";

/** `ceil(seconds in the time frame / 60)`, at least 1. */
export function minutesFor(duration: number, config: VideoConfig | null): number {
	const frame = frameOf(config, duration);
	return Math.max(1, Math.ceil((frame.end - frame.start) / 60));
}
