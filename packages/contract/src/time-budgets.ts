/**
 * How long work on media may take, in the one unit both sides' timers accept: a whole number of
 * milliseconds between 1 and 2^31 - 1. Node's child_process refuses any other timeout (a 37.86 s
 * clip × 20,000 ms/s is 757200.0000000002 and failed every render over 30 s), and Node and
 * workerd timers fire at once past 2^31 - 1 ms. Every budget derived from a media duration goes
 * through `wholeMilliseconds`.
 *
 * The render budget lives here because both sides read it: the tier bounds its encode with it and
 * the Worker's "render clip" step waits at least that long before giving up on the job.
 */

/** The longest timer Node and workerd honour (about 24.8 days). */
export const MAX_TIMER_MS = 2 ** 31 - 1;
export const MINUTE_MS = 60_000;

/**
 * `ms` rounded up to a whole millisecond and kept within what a timer accepts.
 * @throws RangeError for NaN (a bug upstream: there is no sensible budget to give it)
 * @example wholeMilliseconds(757200.0000000002) // 757201
 */
export function wholeMilliseconds(ms: number): number {
	if (Number.isNaN(ms)) throw new RangeError("A time budget was NaN milliseconds.");
	return Math.min(MAX_TIMER_MS, Math.max(1, Math.ceil(ms)));
}

/**
 * `msPerSecond` for every second of media, never less than `floorMs`: the budget of a process that
 * works through `seconds` of media at a known worst-case speed.
 * @example scaledBudgetMs(37.86, 20_000, 10 * MINUTE_MS) // 757201
 */
export function scaledBudgetMs(seconds: number, msPerSecond: number, floorMs: number): number {
	return wholeMilliseconds(Math.max(floorMs, Math.max(0, seconds) * msPerSecond));
}

/**
 * The encode of one clip: 20 s per second of clip (20× slower than real time covers split-screen
 * with smart crop on the smallest instance a render runs on), and at least 10 minutes.
 */
export const renderEncodeBudgetMs = (clipSeconds: number): number =>
	scaledBudgetMs(clipSeconds, 20_000, 10 * MINUTE_MS);

/**
 * How long the Worker waits for one render job of a clip up to `clipSeconds` long: half as long
 * again as the encode's budget, for the rest of the job (face scan, speaker energy, silence
 * detection, thumbnail), plus half an hour for transfers, so the tier's own limits always fire
 * first and say which process was slow.
 */
export const renderJobBudgetMs = (clipSeconds: number): number =>
	wholeMilliseconds(renderEncodeBudgetMs(clipSeconds) * 1.5 + 30 * MINUTE_MS);
