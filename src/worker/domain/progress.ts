/**
 * Progress of a video, 0-100. Each processing stage owns a band; work inside a stage (bytes
 * downloaded, chunks transcribed, clips rendered) moves progress across its band.
 */
import type { ProcessingStage, VideoStatus } from "@clipforge/domain";

export const PROGRESS_BANDS: Record<ProcessingStage, readonly [number, number]> = {
	downloading: [0, 15],
	uploading: [15, 20],
	transcribing: [20, 55],
	analyzing: [55, 65],
	generating_clips: [65, 99],
};

/**
 * How the transcribing band is shared: extracting the audio (while the source uploads) takes its
 * first 15%, the chunks the next 80% (each its own part), merging them the rest.
 */
export const TRANSCRIBING_SHARES = { extract: 0.15, chunks: 0.8 } as const;

const bandOf = (status: VideoStatus) =>
	(PROGRESS_BANDS as Partial<Record<VideoStatus, readonly [number, number]>>)[status];

/** Progress at `fraction` (0..1) of the way through `stage`. */
export function progressAt(stage: ProcessingStage, fraction: number): number {
	const [from, to] = bandOf(stage) ?? [0, 0];
	return from + (to - from) * Math.max(0, Math.min(1, fraction));
}

/** How far through its own stage a video is (0-100), from the stage's band of the overall progress. */
export function stageProgress(status: VideoStatus, progress: number): number {
	if (status === "completed") return 100;
	const band = bandOf(status);
	if (!band) return 0;
	const [from, to] = band;
	return Math.round(Math.max(0, Math.min(1, (progress - from) / (to - from))) * 1000) / 10;
}
