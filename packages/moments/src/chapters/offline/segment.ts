/**
 * Topic segmentation of a transcript without a model: the likeliest split of the talk's words into
 * topics. Each topic draws its words from a distribution of its own, and a split is worth a
 * chapter when it makes the words likelier by more than a fixed price (Utiyama & Isahara 2001; the
 * per-topic model is BayesSeg's Dirichlet-compound multinomial, Eisenstein & Barzilay 2008). Unlike
 * the cohesion valleys of TextTiling, it weighs every chapter against the whole video at once, and
 * it chooses how many chapters there are from the words themselves, under a mild prior on each
 * chapter's length.
 *
 * The search is exact (dynamic programming) over blocks of sentences, about `blocks` of them per
 * video whatever its length, so an hour costs a few milliseconds; a chapter starting near a phrase
 * that hands over to the next topic ("we'll move on to…") earns a little. Each chosen block edge is
 * then moved to the sentence gap near it that the same likelihood prefers, helped by a discourse
 * marker or a pause there. Fewer than YouTube's three chapters are made up to three when they fit. The
 * pipeline has no speaker labels, so speaker changes are read only through the pauses.
 */
import type { ChapterUnit as Unit } from "./chapter-units.ts";
import { markerStrength, topicCueStrength } from "./discourse-markers.ts";

export interface SegmentParams {
	/** Dirichlet prior of each topic's word distribution (smaller: topics' vocabularies more distinct). */
	prior: number;
	/** The price of one more chapter, in nats of likelihood. */
	chapterPrice: number;
	/** About how many blocks the video is cut into for the search. */
	blocks: number;
	/** Chapters are at least duration / minChapterDivisor long (and ≥ minChapterSeconds). */
	minChapterDivisor: number;
	minChapterSeconds: number;
	/**
	 * Nats a sentence gap earns when a start is placed: for a discourse marker opening the next
	 * sentence or a topic cue in it (0..1) and for its pause (0..1, 3 s = 1).
	 */
	cueWeight: number;
	/**
	 * Nats a chapter starting at a block earns for the strongest topic cue (0..1: "we'll move on to…",
	 * "questions now on … from …") said in it or in the second half of the block before.
	 */
	topicCueWeight: number;
	/**
	 * A log-normal prior on a chapter's length: each chapter costs lengthPrior · ln(its share of the
	 * video · typicalChapters)² nats more, so chapters much shorter or longer than a typicalChapters-th
	 * of the video need more evidence from the words.
	 */
	lengthPrior: number;
	typicalChapters: number;
}

/**
 * Chosen by a grid on QMSum train's dev series only (`npx tsx tools/quality/tune-chapters.ts`). The
 * cue weight barely moves the meetings' numbers (their "okay, so" is everywhere); it is kept for
 * talks, where a spoken "moving on" means what it says. The topic cues (15 nats at most) with the
 * price raised from 80 to 100: every cue weight of 5-30 did better on dev than none at the same
 * price (60-120). The length prior is kept mild (10 nats): a stronger one did no better on dev and
 * would pull every video's chapters towards meeting-shaped quarters.
 */
export const DEFAULT_SEGMENT_PARAMS: SegmentParams = {
	prior: 0.3,
	chapterPrice: 100,
	blocks: 120,
	minChapterDivisor: 12,
	minChapterSeconds: 15,
	cueWeight: 2,
	topicCueWeight: 15,
	lengthPrior: 10,
	typicalChapters: 4,
};

/** Index of each chapter's first unit (the first is 0), at least `minChapters` when they fit. */
export function segmentUnits(
	units: Unit[],
	duration: number,
	params: SegmentParams = DEFAULT_SEGMENT_PARAMS,
	minChapters = 3,
	hooks: SegmentHooks = {},
): number[] {
	if (units.length < 2) return [0];
	const { words, blockStarts, view } = blockViewOf(units, duration, params);
	const n = blockStarts.length;
	const minSeconds = Math.max(params.minChapterSeconds, duration / params.minChapterDivisor);
	// Times from the first sentence: split-clips segments a frame that may start anywhere in the video.
	const origin = units[0]!.start;
	const timeAt = (b: number) => (b === 0 ? origin : b >= n ? origin + duration : units[blockStarts[b]!]!.start);
	const cost = withLengthPrior(hooks.costOf?.(view) ?? view.cost, n, params);
	const bonus = hooks.bonusOf?.(view) ?? topicCueBonus(view, params.topicCueWeight);
	const search = { cost, bonus, timeAt, blocks: n, minSeconds };
	let edges = hooks.split?.(search) ?? bestSplit(search, params.chapterPrice, null);
	if (edges.length + 1 < minChapters) edges = bestSplit(search, 0, minChapters) ?? edges;
	const starts = [0, ...edges.map((b) => blockStarts[b]!)];
	return refineStarts(units, words, starts, params);
}

/**
 * For the tools' experiments (tools/quality/chapter-experiments/): another cost of each run of
 * blocks, and nats earned by a chapter starting at each block. The Worker passes none.
 */
export interface SegmentHooks {
	costOf?: (view: BlockView) => Float64Array;
	bonusOf?: (view: BlockView) => Float64Array;
	/** Another way to choose the chapters' block edges than bestSplit at params.chapterPrice. */
	split?: (search: Search) => number[];
}

/** The blocks a talk is cut into for the search: their words, units, and the cost of every run of them. */
export interface BlockView {
	/** Term ids of each block's words, in order. */
	words: Int32Array[];
	/** cost[i·(n+1) + j]: minus the log-likelihood of blocks i..j-1 as one topic. */
	cost: Float64Array;
	vocabulary: number;
	units: Unit[][];
}

/** The talk cut into about params.blocks blocks of sentences (blockStarts: each one's first unit). */
export function blockViewOf(units: Unit[], duration: number, params: SegmentParams) {
	const words = termIds(units);
	const blockStarts = blocksOf(units, duration / params.blocks);
	const end = (b: number) => blockStarts[b + 1] ?? units.length;
	const blockWords = blockStarts.map((from, b) => concat(words.ids.slice(from, end(b))));
	const view: BlockView = {
		words: blockWords,
		cost: segmentCosts(blockWords, words.vocabulary, params.prior),
		vocabulary: words.vocabulary,
		units: blockStarts.map((from, b) => units.slice(from, end(b))),
	};
	return { words, blockStarts, view };
}

/**
 * Nats a chapter starting at each block earns for a topic cue near its start: the strongest said in
 * the block or in the second half of the one before (a block lasts about a 120th of the video, and
 * the sentence that hands over to a topic is often the last of the one before).
 */
function topicCueBonus(view: BlockView, weight: number): Float64Array | undefined {
	if (!weight) return undefined;
	const cues = view.units.map((units) => units.map((u) => topicCueStrength(u.text)));
	const bonus = new Float64Array(cues.length);
	for (let b = 1; b < cues.length; b++) {
		const before = cues[b - 1]!;
		bonus[b] = weight * Math.max(0, ...cues[b]!, ...before.slice(Math.floor(before.length / 2)));
	}
	return bonus;
}

/**
 * The length prior (SegmentParams.lengthPrior) added to every run's cost. Topics in the meetings
 * were rarely under a twentieth or over half of one; without it, a split that gains a little from
 * the words could leave a sliver or one long chapter.
 */
function withLengthPrior(cost: Float64Array, n: number, params: SegmentParams): Float64Array {
	if (!params.lengthPrior) return cost;
	const out = Float64Array.from(cost);
	for (let i = 0; i < n; i++)
		for (let j = i + 1; j <= n; j++)
			out[i * (n + 1) + j]! += params.lengthPrior * Math.log(((j - i) / n) * params.typicalChapters) ** 2;
	return out;
}

/** Each unit's content terms as small integers (one id per distinct stem in the video). */
function termIds(units: Unit[]): { ids: Int32Array[]; vocabulary: number } {
	const idOf = new Map<string, number>();
	const ids = units.map((u) => {
		const list = new Int32Array(u.terms.length);
		u.terms.forEach((term, k) => {
			let id = idOf.get(term);
			if (id === undefined) idOf.set(term, (id = idOf.size));
			list[k] = id;
		});
		return list;
	});
	return { ids, vocabulary: Math.max(1, idOf.size) };
}

function concat(lists: Int32Array[]): Int32Array {
	const out = new Int32Array(lists.reduce((n, l) => n + l.length, 0));
	let at = 0;
	for (const l of lists) {
		out.set(l, at);
		at += l.length;
	}
	return out;
}

/** First unit of each block: a new block starts once `seconds` have passed since the last began. */
function blocksOf(units: Unit[], seconds: number): number[] {
	const starts = [0];
	for (let i = 1; i < units.length; i++)
		if (units[i]!.start - units[starts[starts.length - 1]!]!.start >= seconds) starts.push(i);
	return starts;
}

/**
 * cost[i·(n+1) + j]: minus the log-likelihood of blocks i..j-1 as one topic, the words read in
 * order, each with probability (its count so far + prior) / (words so far + vocabulary·prior).
 * One pass per first block i, adding the blocks after it: O(blocks × words).
 */
function segmentCosts(blocks: Int32Array[], vocabulary: number, prior: number): Float64Array {
	const n = blocks.length;
	const cost = new Float64Array(n * (n + 1));
	const counts = new Int32Array(vocabulary);
	const total = vocabulary * prior;
	for (let i = 0; i < n; i++) {
		counts.fill(0);
		let words = 0;
		let logLikelihood = 0;
		for (let j = i; j < n; j++) {
			for (const id of blocks[j]!) {
				logLikelihood += Math.log((counts[id]! + prior) / (words + total));
				counts[id]!++;
				words++;
			}
			cost[i * (n + 1) + j + 1] = -logLikelihood;
		}
	}
	return cost;
}

export interface Search {
	cost: Float64Array;
	/** Nats a chapter starting at each block earns (none: 0). */
	bonus?: Float64Array;
	timeAt: (block: number) => number;
	blocks: number;
	minSeconds: number;
}

/**
 * The block edges of the cheapest split: each chapter costs its words' cost plus `price`, and
 * lasts at least minSeconds. With `count`, exactly that many chapters (null when they do not fit).
 */
export function bestSplit(search: Search, price: number, count: null): number[];
export function bestSplit(search: Search, price: number, count: number): number[] | null;
export function bestSplit(search: Search, price: number, count: number | null): number[] | null {
	const { cost, bonus, timeAt, blocks: n, minSeconds } = search;
	const layers = count ?? 1;
	// best[k][j]: cheapest split of blocks 0..j-1 into k+1 chapters (or any number, when count is null).
	const best = Array.from({ length: layers }, () => new Float64Array(n + 1).fill(Infinity));
	const back = Array.from({ length: layers }, () => new Int32Array(n + 1).fill(-1));
	for (let j = 1; j <= n; j++) {
		if (timeAt(j) - timeAt(0) >= minSeconds || j === n) best[0]![j] = cost[j]! + price;
		for (let k = count === null ? 0 : 1; k < layers; k++) {
			const from = count === null ? 0 : k - 1;
			for (let i = 1; i < j; i++) {
				if (timeAt(j) - timeAt(i) < minSeconds) break;
				const before = best[from]![i]!;
				if (before === Infinity) continue;
				const total = before + cost[i * (n + 1) + j]! + price - (bonus?.[i] ?? 0);
				if (total < best[k]![j]!) {
					best[k]![j] = total;
					back[k]![j] = i;
				}
			}
		}
	}
	const last = layers - 1;
	if (best[last]![n] === Infinity) return null;
	const edges: number[] = [];
	for (let j = n, k = last; back[k]![j]! > 0; k = count === null ? k : k - 1) {
		j = back[k]![j]!;
		edges.unshift(j);
	}
	return edges;
}

/**
 * Each start moved to the sentence gap, within a block of where it is, that makes the chapters on
 * both sides likeliest, helped by a discourse marker, a topic cue or a pause there. The two chapters' costs at
 * every candidate gap come from one pass forward (from the previous start) and one backward (from
 * the next start): the model's likelihood does not depend on the order the words are read in.
 */
function refineStarts(
	units: Unit[],
	words: { ids: Int32Array[]; vocabulary: number },
	starts: number[],
	params: SegmentParams,
): number[] {
	const refined = [...starts];
	const reach = Math.max(1, Math.round(units.length / params.blocks));
	for (let k = 1; k < refined.length; k++) {
		const previous = refined[k - 1]!;
		const next = refined[k + 1] ?? units.length;
		const lo = Math.max(previous + 1, refined[k]! - reach);
		const hi = Math.min(next - 1, refined[k]! + reach);
		if (lo > hi) continue;
		const before = runningCosts(words, previous, hi, 1, params.prior);
		const after = runningCosts(words, next - 1, lo, -1, params.prior);
		let best = refined[k]!;
		let bestCost = Infinity;
		for (let u = lo; u <= hi; u++) {
			const cue =
				Math.max(markerStrength(units[u]!.text), topicCueStrength(units[u]!.text)) +
				Math.min(3, Math.max(0, units[u]!.start - units[u - 1]!.end)) / 3;
			const total = before.get(u)! + after.get(u)! - params.cueWeight * cue;
			if (total < bestCost) {
				bestCost = total;
				best = u;
			}
		}
		refined[k] = best;
	}
	return refined;
}

/**
 * Reading units from `from` towards `to` (step ±1), the cost of what was read so far at each unit
 * edge between them: forward, the cost of units from..u-1 at u; backward, of units u..from at u.
 */
function runningCosts(
	words: { ids: Int32Array[]; vocabulary: number },
	from: number,
	to: number,
	step: 1 | -1,
	prior: number,
): Map<number, number> {
	const counts = new Map<number, number>();
	const total = words.vocabulary * prior;
	const costs = new Map<number, number>();
	let read = 0;
	let cost = 0;
	for (let u = from; step === 1 ? u <= to : u >= to; u += step) {
		if (step === 1) costs.set(u, cost);
		for (const id of words.ids[u]!) {
			const seen = counts.get(id) ?? 0;
			cost -= Math.log((seen + prior) / (read + total));
			counts.set(id, seen + 1);
			read++;
		}
		if (step === -1) costs.set(u, cost);
	}
	return costs;
}
