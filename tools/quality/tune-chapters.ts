/**
 * `npx tsx tools/quality/tune-chapters.ts [grid]`: the grids the offline chapters' parameters
 * (segment.ts DEFAULT_SEGMENT_PARAMS) were chosen by, scored on QMSum train's **dev** series only
 * with bench:quality's measures (Pk, WindowDiff, chapters per meeting). The held-out series are
 * never read here: they are for `npm run bench:quality -- --test`. Grids: price (the prior and the
 * price of a chapter), shape (blocks and shortest chapter), length (the length prior and price),
 * cues (a discourse marker's or pause's weight when placing a start), topic (a topic cue's weight
 * when choosing the split, and the price), words (which parts of speech are read), smooth
 * (co-occurrence smoothing or a background mixture, dropped), meaning (word embeddings' cohesion,
 * dropped; `MEANING="weights;prices"`, the vectors made as embedding-cohesion.ts says), and for reading the numbers only:
 * none (no chapters at all) and oracle (told the true number of topics). The supervised boundary
 * model that was tried is chapter-experiments/fit-gaps.ts.
 */
import {
	DEFAULT_SEGMENT_PARAMS,
	segmentUnits,
	type SegmentHooks,
	type SegmentParams,
} from "@clipforge/moments/chapters/offline/segment";
import { isContent } from "@clipforge/moments/text/units";
import { smoothedCosts, type SmoothOptions } from "./chapter-experiments/related-terms.ts";
import { embeddingCosts, loadEmbeddings } from "./chapter-experiments/embedding-cohesion.ts";
import {
	buildChapterCorpus,
	chapterStartsOf,
	scoreSegmenter,
	type ChapterItem,
	type Segmenter,
} from "./chapters-eval.ts";

const items = buildChapterCorpus("dev");
if (!items) throw new Error("no local copy of QMSum (see tools/quality/qmsum.ts)");

/** The chapters' starts in seconds, as the offline chapters keep them (YouTube's rules). */
const split =
	(change: Partial<SegmentParams>, trueCount = false, hooks: SegmentHooks = {}): Segmenter =>
	(item) => {
		const params = { ...DEFAULT_SEGMENT_PARAMS, ...change };
		const duration = item.transcript.duration;
		const starts = trueCount
			? segmentUnits(item.units, duration, { ...params, chapterPrice: 1e12 }, item.topicCount, hooks)
			: segmentUnits(item.units, duration, params, 3, hooks);
		return chapterStartsOf(item, starts);
	};

/** The same split reading only these parts of speech as topic words. */
const readingOnly =
	(pos: Set<string>, segmenter: Segmenter): Segmenter =>
	(item) => {
		const units = item.units.map((u) => ({
			...u,
			terms: u.tagged.filter((t) => pos.has(t.pos) && isContent({ ...t, negated: false })).map((t) => t.stem),
		}));
		return segmenter({ ...item, units } satisfies ChapterItem);
	};

/** The split with co-occurrence smoothing or a background mixture in its topic model (related-terms.ts). */
const smoothed = (change: Partial<SmoothOptions>, chapterPrice: number): Segmenter => {
	const options = {
		prior: DEFAULT_SEGMENT_PARAMS.prior,
		related: 0,
		neighbours: 5,
		window: 4,
		background: 0,
		...change,
	};
	return split({ chapterPrice }, false, { costOf: (view) => smoothedCosts(view.words, view.vocabulary, options) });
};

type Grid = [string, Segmenter][];
const product = <A, B>(as: A[], bs: B[]) => as.flatMap((a) => bs.map((b): [A, B] => [a, b]));

const grids: Record<string, () => Grid> = {
	price: () =>
		product([0.05, 0.1, 0.3, 0.5, 1], [20, 30, 60, 100, 150]).map(([prior, chapterPrice]) => [
			`prior ${prior} price ${chapterPrice}`,
			split({ prior, chapterPrice }),
		]),
	shape: () =>
		product([60, 120, 240], [6, 12, 20]).map(([blocks, minChapterDivisor]) => [
			`blocks ${blocks} shortest /${minChapterDivisor}`,
			split({ blocks, minChapterDivisor }),
		]),
	length: () =>
		product(product([0, 10, 30, 60], [4, 6]), [45, 60, 80]).map(
			([[lengthPrior, typicalChapters], chapterPrice]) => [
				`length prior ${lengthPrior} typical ${typicalChapters} price ${chapterPrice}`,
				split({ lengthPrior, typicalChapters, chapterPrice }),
			],
		),
	smooth: () => [
		...product(product([0.2, 0.5], [2, 6]), [60, 100]).map(([[related, window], price]): Grid[number] => [
			`related ${related} window ${window} price ${price}`,
			smoothed({ related, window }, price),
		]),
		...product([0.1, 0.3, 0.5], [30, 60]).map(([background, price]): Grid[number] => [
			`background ${background} price ${price}`,
			smoothed({ background }, price),
		]),
	],
	cues: () => [0, 2, 6].map((cueWeight) => [`cue weight ${cueWeight}`, split({ cueWeight })]),
	topic: () =>
		product([0, 5, 10, 15, 20, 30], [60, 80, 100, 120]).map(([topicCueWeight, chapterPrice]) => [
			`topic cue weight ${topicCueWeight} price ${chapterPrice}`,
			split({ topicCueWeight, chapterPrice }),
		]),
	words: () =>
		(
			[
				["NOUN PROPN", ["NOUN", "PROPN"]],
				["NOUN PROPN ADJ", ["NOUN", "PROPN", "ADJ"]],
				["NOUN PROPN ADJ VERB", ["NOUN", "PROPN", "ADJ", "VERB"]],
			] as [string, string[]][]
		).map(([name, pos]) => [`only ${name}`, readingOnly(new Set(pos), split({}))]),
	meaning: () => {
		const emb = loadEmbeddings();
		const [weights, prices] = (process.env.MEANING ?? "0.5,1,2;100,150")
			.split(";")
			.map((l) => l.split(",").map(Number));
		return [
			...product(weights!, prices!).map(([weight, chapterPrice]): Grid[number] => [
				`meaning weight ${weight} price ${chapterPrice}`,
				split({ chapterPrice }, false, { costOf: (view) => embeddingCosts(view, emb, weight) }),
			]),
			...weights!.map((weight): Grid[number] => [
				`meaning weight ${weight}, true count`,
				split({}, true, { costOf: (view) => embeddingCosts(view, emb, weight) }),
			]),
		];
	},
	none: () => [["no chapters", () => [0]]],
	oracle: () => [0.1, 0.3, 1].map((prior) => [`true count, prior ${prior}`, split({ prior }, true)]),
};

const chosen = process.argv[2] ?? "price";
const grid = grids[chosen];
if (!grid) throw new Error(`unknown grid ${chosen}: ${Object.keys(grids).join(", ")}`);
console.log(`QMSum train, dev series: ${items.length} meetings`);
console.log(`defaults: ${JSON.stringify(scoreSegmenter(items, split({})))}`);
for (const [name, segmenter] of grid()) console.log(`${name}: ${JSON.stringify(scoreSegmenter(items, segmenter))}`);
