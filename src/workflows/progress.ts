import type { VideoStatus } from "../worker/db/schema";

/**
 * Each processing stage owns a band of 0-100; work inside a stage (bytes downloaded, chunks
 * transcribed, clips rendered) moves progress across its band.
 */
export const PROGRESS_BANDS: Partial<Record<VideoStatus, readonly [number, number]>> = {
	downloading: [0, 15],
	uploading: [15, 20],
	transcribing: [20, 55],
	analyzing: [55, 65],
	generating_clips: [65, 99],
};

/** Progress at `fraction` (0..1) of the way through `stage`. */
export function progressAt(stage: VideoStatus, fraction: number): number {
	const [from, to] = PROGRESS_BANDS[stage] ?? [0, 0];
	return from + (to - from) * Math.max(0, Math.min(1, fraction));
}

/**
 * Wraps a progress callback so D1 sees at most one write per `intervalMs` (plus the last value):
 * a render job can report many times a second.
 */
export function throttled(write: (value: number) => Promise<void>, intervalMs = 1000): (value: number) => Promise<void> {
	let lastAt = 0;
	let lastValue = -1;
	return async (value) => {
		const now = Date.now();
		if (value <= lastValue || (now - lastAt < intervalMs && value < 100)) return;
		lastAt = now;
		lastValue = value;
		await write(value);
	};
}
