/**
 * Where a clip's times land once pauses are cut from it (jump cuts): the tier draws the captions on
 * the cut clip with it, and the Worker retimes the clip's words and its SRT/VTT with it, so both
 * agree to the millisecond. Plain TypeScript, no zod.
 */

/** Times on the cut clip are kept to the millisecond (captions are drawn to the centisecond). */
export const RETIME_DECIMALS = 3;
const round = (n: number) => Math.round(n * 10 ** RETIME_DECIMALS) / 10 ** RETIME_DECIMALS;

/**
 * Where time `t` (seconds from the clip's start, source timeline) lands in the cut clip: minus
 * everything cut before it; a time inside a cut lands on its seam. `cuts` are in order.
 */
export function retime(t: number, cuts: readonly { start: number; end: number }[]): number {
	let removed = 0;
	for (const cut of cuts) {
		if (t >= cut.end) removed += cut.end - cut.start;
		else if (t > cut.start) removed += t - cut.start;
		else break;
	}
	return round(t - removed);
}

/** Clip-relative words on the cut clip's timeline (unchanged without cuts). */
export function retimeWords<W extends { start: number; end: number }>(
	words: readonly W[],
	cuts: readonly { start: number; end: number }[] | null,
): W[] {
	if (!cuts || cuts.length === 0) return [...words];
	return words.map((w) => ({ ...w, start: retime(w.start, cuts), end: retime(w.end, cuts) }));
}
