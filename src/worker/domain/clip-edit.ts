/**
 * The rules of editing a rendered clip (PATCH /api/clips/:id), no I/O: new in/out points snap to
 * the edges of the transcript's words and stay inside the charged time frame and the clip length bounds;
 * corrected caption words replace a word's text and keep its timing; and which changes alter the
 * picture (and so re-render the clip) and which are only data.
 */
import type { Word } from "@clipforge/contract";
import { CLIP_SECONDS } from "@clipforge/domain";

/**
 * Edits are free. A re-render touches only the clip's own seconds of the stored source (no
 * download, transcription or analysis), which the video's charge already paid to turn into clips;
 * a cap per clip (and the write rate limit) keeps it from being a free render farm.
 */
export const MAX_EDITS_PER_CLIP = 20;
/**
 * Edit re-renders of one workspace running at once. Free edits share the render pool with every
 * tenant's videos: past this a PATCH that would render gets 429 queue_full (nothing changed).
 */
export const MAX_CONCURRENT_EDIT_RENDERS = 3;
/**
 * A video's edit budget, in seconds of clips rendered again: each minute the video was charged
 * buys this many (two minutes of re-renders per minute paid), and every video gets at least
 * EDIT_BUDGET_FLOOR_SECONDS. Without it the per-clip cap times many clips (up to 60 parts of up to
 * 600 s) was hundreds of hours of free encoding on the pool every tenant shares.
 */
export const EDIT_SECONDS_PER_MINUTE_CHARGED = 120;
export const EDIT_BUDGET_FLOOR_SECONDS = 600;
export const EDIT_CHARGING_RULE = `Editing a clip is free: up to ${MAX_EDITS_PER_CLIP} re-renders per clip, and per video up to ${EDIT_SECONDS_PER_MINUTE_CHARGED / 60} minutes of re-rendered clips for each minute it was charged (at least ${EDIT_BUDGET_FLOOR_SECONDS / 60} minutes); past either, 409 quota_exceeded. Changes that do not alter the picture (favorite, title, a hook title not drawn, words of captions not shown) do not count.`;

/**
 * Seconds of clips a video's edits may render again in all.
 * @example editBudgetSeconds(10) // 1200: a 10-minute charge buys 20 minutes of re-renders
 * @example editBudgetSeconds(1) // 600: the floor
 */
export function editBudgetSeconds(minutesCharged: number): number {
	return Math.max(EDIT_BUDGET_FLOOR_SECONDS, minutesCharged * EDIT_SECONDS_PER_MINUTE_CHARGED);
}

/** How far a requested time may move to reach a word's edge; further than that (a long pause), it stays. */
export const SNAP_SECONDS = 1.5;

/** A corrected word: the transcript word starting at `start` (seconds in the source) reads `word`. */
export interface CaptionFix {
	start: number;
	word: string;
}

export interface EditIssue {
	path: string;
	message: string;
	/** On a time outside the charged frame: the frame a trim may use. */
	frame?: PaidFrame;
}

/**
 * The stretch of the source the video's charge covered (its time frame when it was transcribed, in
 * seconds): an edit is a free re-render, so it may cut only from what was paid for.
 */
export interface PaidFrame {
	start: number;
	end: number;
}

const round3 = (t: number) => Math.round(t * 1000) / 1000;
const SAME = 0.0005;

/**
 * The in/out points of a trim, snapped: the start to the nearest word start, the end to the nearest
 * word end (each within SNAP_SECONDS, else as asked), then checked against the charged time frame
 * and the clip length bounds.
 * @example snapTrim(words, 12.3, 41.9, { start: 0, end: 600 }) // { start: 12.2, end: 42.05, issues: [] }
 */
export function snapTrim(
	words: readonly Word[],
	start: number,
	end: number,
	frame: PaidFrame,
): { start: number; end: number; issues: EditIssue[] } {
	const issues: EditIssue[] = [];
	const inside = `must lie inside the video's charged time frame (${frame.start}-${frame.end} s in the source)`;
	if (!(start >= frame.start)) issues.push({ path: "startTime", message: inside, frame });
	if (!(end <= frame.end)) issues.push({ path: "endTime", message: inside, frame });
	if (!(end > start)) issues.push({ path: "endTime", message: "must be after startTime" });
	if (issues.length > 0) return { start, end, issues };
	const snappedStart = nearest(
		words.filter((w) => w.start < end).map((w) => w.start),
		start,
	);
	const snappedEnd = nearest(
		words.filter((w) => w.end > snappedStart).map((w) => w.end),
		end,
	);
	// Snapping never leaves the frame: a word edge just outside it is not paid for either.
	const s = round3(Math.max(frame.start, snappedStart));
	const e = round3(Math.min(frame.end, snappedEnd));
	const length = e - s;
	if (length < CLIP_SECONDS.min - SAME || length > CLIP_SECONDS.max + SAME) {
		issues.push({
			path: "endTime",
			message: `the clip must last ${CLIP_SECONDS.min} to ${CLIP_SECONDS.max} s; snapped to word edges it would last ${round3(length)} s (${s} → ${e})`,
		});
	}
	return { start: s, end: e, issues };
}

function nearest(edges: number[], t: number): number {
	let best: number | null = null;
	for (const edge of edges)
		if (Math.abs(edge - t) <= SNAP_SECONDS && (best === null || Math.abs(edge - t) < Math.abs(best - t)))
			best = edge;
	return best ?? t;
}

/** The transcript's words inside [start, end), with corrected text, in source time. */
export function clipWords(
	words: readonly Word[],
	start: number,
	end: number,
	fixes: readonly CaptionFix[] | null,
): Word[] {
	const wordOf = correctedWord(fixes);
	return words
		.filter((w) => w.end > start && w.start < end)
		.map((w) => ({ start: w.start, end: w.end, word: wordOf(w) }));
}

/** Each word as the clip's corrections write it (a fix is keyed by its word's start). */
export function correctedWord(fixes: readonly CaptionFix[] | null): (word: Word) => string {
	const byStart = new Map((fixes ?? []).map((f) => [f.start, f.word]));
	return (word) => byStart.get(word.start) ?? word.word;
}

/** The clip's words as its captions show them: times from the clip's start. */
export const relativeWords = (words: readonly Word[], start: number, end: number): Word[] =>
	words.map((w) => ({
		word: w.word,
		start: round3(Math.max(0, w.start - start)),
		end: round3(Math.min(end, w.end) - start),
	}));

/**
 * Applies `{index, word}` corrections (index into the clip's words, as GET /api/clips/:id lists
 * them) to the stored fixes; unknown indexes are issues.
 */
export function withCorrections(
	inClip: readonly Word[],
	existing: readonly CaptionFix[] | null,
	corrections: readonly { index: number; word: string }[],
): { fixes: CaptionFix[]; issues: EditIssue[] } {
	const fixes = new Map((existing ?? []).map((f) => [f.start, f.word]));
	const issues: EditIssue[] = [];
	corrections.forEach((c, n) => {
		const word = inClip[c.index];
		if (!word)
			issues.push({
				path: `captionWords.${n}.index`,
				message: `the clip has ${inClip.length} caption words (0-${inClip.length - 1})`,
			});
		else fixes.set(word.start, c.word.trim());
	});
	return { fixes: [...fixes].map(([start, word]) => ({ start, word })).sort((a, b) => a.start - b.start), issues };
}

export const sameTime = (a: number, b: number) => Math.abs(a - b) < SAME;
