/**
 * `npx tsx tools/quality/chapter-experiments/fit-gaps.ts [--weights=1,3,8] [--prices=60,100]`, tried
 * and dropped (docs/chapters.md): a logistic boundary model over gap-features.ts, fitted on QMSum
 * train's **dev** series only, its log-odds times a weight earned by a chapter starting at a gap in
 * the segmentation's search. Cross-validated by series within dev (4 folds): each meeting's gaps
 * are scored by a model fitted on the other folds' series. GAP_TOLERANCE=2 also labels the two gaps
 * either side of a true change. The held-out series are never read here.
 */
import { gapFeatures, GAP_FEATURES } from "./gap-features.ts";
import {
	blockViewOf,
	DEFAULT_SEGMENT_PARAMS,
	type BlockView,
	segmentUnits,
	type SegmentParams,
} from "@clipforge/moments/chapters/offline/segment";
import { logit, type LogisticModel } from "@clipforge/moments/ranking/offline/logistic";
import { buildChapterCorpus, scoreSegmenter, type ChapterItem, type Segmenter } from "../chapters-eval.ts";
import { fitLogistic } from "../fit-logistic.ts";
import { seriesOf } from "../qmsum.ts";

const FOLDS = 4;

interface Gaps {
	item: ChapterItem;
	rows: number[][];
	labels: number[];
}

/** Each gap's features, and 1 for the gap nearest each true topic change. */
function gapsOf(item: ChapterItem, params: SegmentParams): Gaps {
	const { view, blockStarts } = blockViewOf(item.units, item.transcript.duration, params);
	const rows = gapFeatures(view);
	const labels = rows.map(() => 0);
	const gapTimes = blockStarts.slice(1).map((u) => item.units[u]!.start);
	item.truth.forEach((topic, w) => {
		if (w === 0 || topic === item.truth[w - 1]) return;
		const t = item.wordTimes[w]!;
		let nearest = 0;
		gapTimes.forEach((time, g) => {
			if (Math.abs(time - t) < Math.abs(gapTimes[nearest]! - t)) nearest = g;
		});
		const tolerance = Number(process.env.GAP_TOLERANCE ?? 0);
		for (let d = -tolerance; d <= tolerance; d++)
			if (nearest + d >= 0 && nearest + d < labels.length) labels[nearest + d] = 1;
	});
	return { item, rows, labels };
}

/** Series dealt to folds, largest first, each to the fold with the fewest meetings so far. */
function foldsOf(items: ChapterItem[]): Map<string, number> {
	const sizes = new Map<string, number>();
	for (const item of items) sizes.set(seriesOf(item.id), (sizes.get(seriesOf(item.id)) ?? 0) + 1);
	const load = new Array<number>(FOLDS).fill(0);
	const fold = new Map<string, number>();
	for (const [series, size] of [...sizes].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))) {
		const f = load.indexOf(Math.min(...load));
		fold.set(series, f);
		load[f]! += size;
	}
	return fold;
}

function fit(gaps: Gaps[]): LogisticModel {
	return fitLogistic(
		GAP_FEATURES,
		gaps.flatMap((g) => g.rows),
		gaps.flatMap((g) => g.labels),
		{ l2: 1e-2, epochs: 400 },
	);
}

/** Each meeting's gap log-odds from the model fitted on the other folds' series. */
function crossValidatedLogits(gaps: Gaps[], params: SegmentParams): Map<string, number[]> {
	const fold = foldsOf(gaps.map((g) => g.item));
	const out = new Map<string, number[]>();
	for (let f = 0; f < FOLDS; f++) {
		const model = fit(gaps.filter((g) => fold.get(seriesOf(g.item.id)) !== f));
		for (const g of gaps.filter((x) => fold.get(seriesOf(x.item.id)) === f)) {
			const { view } = blockViewOf(g.item.units, g.item.transcript.duration, params);
			out.set(
				g.item.id,
				gapFeatures(view).map((row) => logit(model, row)),
			);
		}
	}
	return out;
}

const segmenterOf =
	(params: SegmentParams, weight: number, logits: Map<string, number[]>, trueCount = false): Segmenter =>
	(item) => {
		const bonusOf = (view: BlockView) => {
			const bonus = new Float64Array(view.words.length + 1);
			logits.get(item.id)!.forEach((logOdds, k) => (bonus[k + 1] = weight * logOdds));
			return bonus;
		};
		const p = trueCount ? { ...params, chapterPrice: 1e12 } : params;
		const count = trueCount ? item.topicCount : 3;
		const starts = segmentUnits(item.units, item.transcript.duration, p, count, { bonusOf });
		return starts.map((i) => item.units[i]!.start);
	};

function main(): void {
	const items = buildChapterCorpus("dev");
	if (!items) throw new Error("no local copy of QMSum (see tools/quality/qmsum.ts)");
	const params = DEFAULT_SEGMENT_PARAMS;
	const gaps = items.map((item) => gapsOf(item, params));
	const logits = crossValidatedLogits(gaps, params);
	console.log(`QMSum train, dev series: ${items.length} meetings, ${FOLDS} folds by series`);
	const grid = (process.argv.find((a) => a.startsWith("--weights="))?.slice(10) ?? "0,1,2,4,8").split(",");
	const prices = (process.argv.find((a) => a.startsWith("--prices="))?.slice(9) ?? "20,40,60,100").split(",");
	for (const w of grid.map(Number))
		for (const price of prices.map(Number)) {
			const score = scoreSegmenter(items, segmenterOf({ ...params, chapterPrice: price }, w, logits));
			console.log(`gap weight ${w} price ${price}: ${JSON.stringify(score)}`);
		}
	for (const w of grid.map(Number)) {
		const score = scoreSegmenter(items, segmenterOf(params, w, logits, true));
		console.log(`true count, gap weight ${w}: ${JSON.stringify(score)}`);
	}
	const model = fit(gaps);
	console.log(model.features.map((f, k) => `${f} ${model.weights[k]!.toFixed(3)}`).join(", "));
}

main();
