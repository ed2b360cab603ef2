/**
 * Remove silences, the Worker's half: which pauses inside a clip are cut, from the transcript's word
 * timings. The render tier confirms each with silencedetect, snaps it to the frame grid and cuts it
 * in the clip's one pass (containers/render/src/render/jump-cuts.ts).
 */
import type { Word } from "@clipforge/contract";

/** Silence kept beside each word at a cut, so a jump never clips a word's attack or tail. */
export const SILENCE_PADDING_SECONDS = 0.12;

/**
 * The stretches to cut, in seconds from the clip's start: every gap of `threshold` seconds or more
 * between two consecutive words of the clip, less the padding on both sides. Only gaps between
 * words count: the clip's edges were chosen by the ranking and stay.
 * @example pausesToCut([{word: "a", start: 0, end: 1}, {word: "b", start: 3, end: 4}], 0.6) // [{start: 1.12, end: 2.88}]
 */
export function pausesToCut(
	words: Word[],
	threshold: number,
	padding = SILENCE_PADDING_SECONDS,
): { start: number; end: number }[] {
	const sorted = [...words].sort((a, b) => a.start - b.start);
	const pauses: { start: number; end: number }[] = [];
	let lastEnd: number | null = null;
	for (const word of sorted) {
		if (lastEnd !== null && word.start - lastEnd >= threshold) {
			const start = round3(lastEnd + padding);
			const end = round3(word.start - padding);
			if (end > start) pauses.push({ start, end });
		}
		lastEnd = lastEnd === null ? word.end : Math.max(lastEnd, word.end);
	}
	return pauses;
}

/** Seconds the cuts removed. */
export const removedSeconds = (cuts: readonly { start: number; end: number }[] | null): number =>
	round3((cuts ?? []).reduce((sum, c) => sum + (c.end - c.start), 0));

const round3 = (n: number) => Math.round(n * 1000) / 1000;
