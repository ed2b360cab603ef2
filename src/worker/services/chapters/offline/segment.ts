/**
 * Topic segmentation of a transcript without a model: where one topic ends and the next begins.
 * Each gap between two sentences gets a boundary score from three cues:
 *   - lexical cohesion (TextTiling, Hearst 1997): how deep the IDF-weighted word overlap between
 *     the talk before and after the gap dips below the peaks around it, over a window that grows
 *     with the video (a 5-minute talk changes topic every minute, a meeting every ten);
 *   - the silence at the gap (a long pause often closes a topic);
 *   - a discourse marker opening the next sentence ("moving on", "next", "let's talk about", "okay so").
 * The strongest gaps become chapter starts, as many as stand out from the rest (mean + cutoff·sd),
 * at least a minimum length apart, never fewer than YouTube's three chapters when the video has room.
 * No speaker labels exist in the pipeline, so speaker changes are read only through the pauses.
 */
import { idfOf } from "../../ranking/text/cohesion";
import type { ChapterUnit as Unit } from "./chapter-units";

export interface SegmentParams {
	/** The cohesion window is the video's duration divided by this, within [minBlock, maxBlock] seconds. */
	blockDivisor: number;
	minBlockSeconds: number;
	maxBlockSeconds: number;
	/** Gaps kept are those scoring above mean + cutoff·sd of all gaps' scores. */
	cutoff: number;
	/** Chapters are at least duration / minChapterDivisor long (and ≥ minChapterSeconds). */
	minChapterDivisor: number;
	minChapterSeconds: number;
	/** Weight of a pause (capped at 3 s, read as 0..1) and of a discourse marker, beside the depth (0..2). */
	pauseWeight: number;
	markerWeight: number;
	/** Half-width (gaps) of the smoothing of the cohesion curve. */
	smoothing: number;
}

/** Tuned on QMSum train's dev half only (`npm run bench:quality -- --only chapters --half dev`). */
export const DEFAULT_SEGMENT_PARAMS: SegmentParams = {
	blockDivisor: 6,
	minBlockSeconds: 20,
	maxBlockSeconds: 900,
	cutoff: 2.5,
	minChapterDivisor: 6,
	minChapterSeconds: 15,
	pauseWeight: 0.1,
	markerWeight: 0.05,
	smoothing: 2,
};

/** Openers that announce a new topic, strong and weak. */
const STRONG_MARKER =
	/^(?:(?:so|and|okay|ok|alright|all right|right|now|well)[,\s]+)*(?:moving on|next|let's (?:talk|move|turn|look|go|start|get)|let us|turning to|on to|the next (?:thing|point|item|topic|question|step)|another (?:thing|topic|question|point|issue)|anyway|finally|first of all|to start|last(?:ly)?|the (?:other|last) (?:thing|point|item|topic))\b/i;
const WEAK_MARKER = /^(?:okay|ok|alright|all right|right|so|now|well)\b/i;

export function markerStrength(text: string): number {
	const opening = text.replace(/^[^\p{L}]+/u, "");
	if (STRONG_MARKER.test(opening)) return 1;
	return WEAK_MARKER.test(opening) ? 0.35 : 0;
}

export interface Segmentation {
	/** Index of each chapter's first unit, starting with 0. */
	starts: number[];
	/** Boundary score of the gap after each unit (the last is 0). */
	scores: number[];
}

export function segmentUnits(
	units: Unit[],
	duration: number,
	params: SegmentParams = DEFAULT_SEGMENT_PARAMS,
	minChapters = 3,
): Segmentation {
	const n = units.length - 1;
	if (n <= 0) return { starts: [0], scores: units.map(() => 0) };
	const block = clamp(duration / params.blockDivisor, params.minBlockSeconds, params.maxBlockSeconds);
	const curve = slidingContinuity(units, idfOf(units), block);
	const smooth = smoothed(curve.slice(0, n), params.smoothing);
	const depth = depthOf(smooth);
	const scores = depth.map((d, g) => {
		const pause = Math.min(3, Math.max(0, units[g + 1]!.start - units[g]!.end)) / 3;
		return d + params.pauseWeight * pause + params.markerWeight * markerStrength(units[g + 1]!.text);
	});
	scores.push(0);
	const minSeconds = Math.max(params.minChapterSeconds, duration / params.minChapterDivisor);
	const mean = scores.slice(0, n).reduce((a, b) => a + b, 0) / n;
	const sd = Math.sqrt(scores.slice(0, n).reduce((a, b) => a + (b - mean) ** 2, 0) / n);
	const order = Array.from({ length: n }, (_, g) => g).sort((a, b) => scores[b]! - scores[a]!);
	const chosen: number[] = [];
	const startOf = (g: number) => units[g + 1]!.start;
	const fits = (g: number, spacing: number) =>
		startOf(g) >= spacing &&
		duration - startOf(g) >= spacing &&
		chosen.every((c) => Math.abs(startOf(c) - startOf(g)) >= spacing);
	for (const g of order) {
		if (scores[g]! <= mean + params.cutoff * sd) break;
		if (fits(g, minSeconds)) chosen.push(g);
	}
	// Too few stood out: the best remaining gaps make up YouTube's minimum, if they fit at all.
	for (const spacing of [minSeconds, 10]) {
		for (const g of order) {
			if (chosen.length >= minChapters - 1) break;
			if (!chosen.includes(g) && fits(g, spacing)) chosen.push(g);
		}
	}
	// The smoothed curve places a valley to within a few sentences; the exact gap is the sharpest
	// local break among them (least continuity, longest pause, a topic-opening marker).
	const sharp = (k: number) =>
		1 -
		curve[k]! +
		Math.min(3, Math.max(0, units[k + 1]!.start - units[k]!.end)) / 3 +
		markerStrength(units[k + 1]!.text);
	const refined = chosen.map((g) => {
		let best = g;
		for (let k = Math.max(0, g - params.smoothing); k <= Math.min(n - 1, g + params.smoothing); k++)
			if (sharp(k) > sharp(best)) best = k;
		return best;
	});
	return { starts: [0, ...[...new Set(refined)].map((g) => g + 1).sort((a, b) => a - b)], scores };
}

/**
 * The ranker's continuity curve (text/cohesion.ts: cosine of the IDF-weighted terms said in the
 * `block` seconds before and after each gap), computed in one pass: the two windows slide, and
 * the dot product and norms are updated term by term as sentences enter and leave them, so a
 * window of fifteen minutes costs no more than one of twenty seconds.
 */
export function slidingContinuity(units: Unit[], idf: Map<string, number>, block: number): number[] {
	const before = new Map<string, number>();
	const after = new Map<string, number>();
	let dot = 0;
	let normBefore = 0;
	let normAfter = 0;
	const change = (side: "before" | "after", unit: Unit, sign: 1 | -1) => {
		const mine = side === "before" ? before : after;
		const other = side === "before" ? after : before;
		let norm = 0;
		for (const t of unit.terms) {
			const w = sign * (idf.get(t) ?? 1);
			const was = mine.get(t) ?? 0;
			const now = was + w;
			norm += now * now - was * was;
			dot += w * (other.get(t) ?? 0);
			if (Math.abs(now) < 1e-9) mine.delete(t);
			else mine.set(t, now);
		}
		if (side === "before") normBefore += norm;
		else normAfter += norm;
	};
	const curve: number[] = [];
	let first = 0; // first unit inside the window before the gap
	let next = 1; // first unit not yet inside the window after the gap
	for (let g = 0; g < units.length - 1; g++) {
		const at = units[g]!.end;
		// Unit g crosses the gap: out of the window after (if it was in), into the window before.
		if (g > 0 && g < next) change("after", units[g]!, -1);
		change("before", units[g]!, 1);
		while (first <= g && units[first]!.end <= at - block) change("before", units[first++]!, -1);
		if (next <= g) next = g + 1;
		while (next < units.length && units[next]!.start < at + block) change("after", units[next++]!, 1);
		curve.push(normBefore > 1e-9 && normAfter > 1e-9 ? Math.max(0, dot) / Math.sqrt(normBefore * normAfter) : 0);
	}
	curve.push(0);
	return curve;
}

function smoothed(curve: number[], half: number): number[] {
	return curve.map((_, g) => {
		let sum = 0;
		let count = 0;
		for (let k = g - half; k <= g + half; k++) {
			if (k >= 0 && k < curve.length) {
				sum += curve[k]!;
				count++;
			}
		}
		return sum / count;
	});
}

/** How far each point dips below the highest peaks reached climbing left and right from it. */
function depthOf(curve: number[]): number[] {
	return curve.map((v, g) => {
		let left = v;
		for (let k = g; k >= 0 && curve[k]! >= left; k--) left = curve[k]!;
		let right = v;
		for (let k = g; k < curve.length && curve[k]! >= right; k++) right = curve[k]!;
		return left - v + (right - v);
	});
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
