/**
 * Every process timeout the tier derives from a media duration, in one table so each is a whole
 * number of milliseconds within a timer's range (the contract's `scaledBudgetMs`) and one property
 * test covers them all over every duration a user may send (test/job-timeouts.test.ts). The rates
 * are worst-case speeds per second of media, with a floor for short media and slow starts.
 */
import { MINUTE_MS, renderEncodeBudgetMs, scaledBudgetMs } from "@clipforge/contract";

export const jobTimeouts = {
	/** render-clip's one encode of the clip (the contract's budget: the Worker waits longer). */
	renderEncode: renderEncodeBudgetMs,
	/** Smart crop's face scan: decoding at a few frames per second and ~40 ms per detection. */
	faceScan: (clipSeconds: number) => scaledBudgetMs(clipSeconds, 4_000, 5 * MINUTE_MS),
	/** Speaker layouts' per-channel audio energy: an audio-only decode. */
	channelEnergy: (clipSeconds: number) => scaledBudgetMs(clipSeconds, 2_000, 2 * MINUTE_MS),
	/** Remove silences' silencedetect over the clip's sound. */
	silenceDetect: (clipSeconds: number) => scaledBudgetMs(clipSeconds, 2_000, MINUTE_MS),
	/** The loudness signal over the charged time frame of the source (audio only). */
	loudness: (frameSeconds: number) => scaledBudgetMs(frameSeconds, 1_000, 5 * MINUTE_MS),
	/** The paid time frame copied out of a source without re-encoding (read and written once). */
	frameCopy: (frameSeconds: number) => scaledBudgetMs(frameSeconds, 1_000, 10 * MINUTE_MS),
	/** One audio chunk cut out of the source for transcription. */
	audioChunk: (chunkSeconds: number) => scaledBudgetMs(chunkSeconds, 3_000, 30 * MINUTE_MS),
	/** pocketsphinx over one chunk (about 0.2× real time here; 3× leaves room for a busy instance). */
	localTranscription: (chunkSeconds: number) => scaledBudgetMs(chunkSeconds, 3_000, 30 * MINUTE_MS),
} satisfies Record<string, (seconds: number) => number>;

export type TimedJobStep = keyof typeof jobTimeouts;
