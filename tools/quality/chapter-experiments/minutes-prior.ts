/**
 * `npx tsx tools/quality/chapter-experiments/minutes-prior.ts`: the length prior in minutes instead
 * of a share of the video: each chapter costs weight · ln(its seconds / typical seconds)² nats, so
 * a long meeting is expected to hold more topics than a short one. Scored on QMSum train's **dev**
 * series only; with CUES=a,b,c the topic cues (topic-cues.ts) as well.
 */
import { DEFAULT_SEGMENT_PARAMS, segmentUnits, type BlockView } from "@clipforge/moments/chapters/offline/segment";
import { buildChapterCorpus, chapterStartsOf, scoreSegmenter, type Segmenter } from "../chapters-eval.ts";
import { tieredBonus } from "./topic-cues.ts";

export function minutesPrior(view: BlockView, duration: number, weight: number, typical: number): Float64Array {
	const n = view.words.length;
	const origin = view.units[0]![0]!.start;
	const timeAt = (b: number) => (b >= n ? origin + duration : view.units[b]![0]!.start);
	const out = Float64Array.from(view.cost);
	for (let i = 0; i < n; i++)
		for (let j = i + 1; j <= n; j++) {
			const seconds = Math.max(1, timeAt(j) - timeAt(i));
			out[i * (n + 1) + j]! += weight * Math.log(seconds / typical) ** 2;
		}
	return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const items = buildChapterCorpus("dev")!;
	const list = (name: string, fallback: string) => (process.env[name] ?? fallback).split(",").map(Number);
	const tiers = process.env.CUES?.split(",").map(Number);
	for (const price of list("PRICES", "40,60,80"))
		for (const weight of list("WEIGHTS", "5,10,20"))
			for (const typical of list("TYPICAL", "360,480,600")) {
				const segmenter: Segmenter = (item) => {
					const duration = item.transcript.duration;
					const params = { ...DEFAULT_SEGMENT_PARAMS, chapterPrice: price, lengthPrior: 0 };
					const starts = segmentUnits(item.units, duration, params, 3, {
						costOf: (view) => minutesPrior(view, duration, weight, typical),
						bonusOf: tiers ? (view) => tieredBonus(view, tiers) : undefined,
					});
					return chapterStartsOf(item, starts);
				};
				console.log(
					`price ${price} minutes prior ${weight} typical ${typical}s: ${JSON.stringify(scoreSegmenter(items, segmenter))}`,
				);
			}
}
