/**
 * `npx tsx tools/quality/chapter-experiments/topic-cues.ts`: phrases that hand the floor to the
 * next topic anywhere in a sentence ("we'll move on to", "questions now on … from", "how about
 * you?"), each block earning weight × the strongest cue near its start as a chapter start in the
 * segmentation's search. Scored on QMSum train's **dev** series only.
 */
import type { ChapterUnit as Unit } from "@clipforge/moments/chapters/offline/chapter-units";
import {
	DEFAULT_SEGMENT_PARAMS,
	segmentUnits,
	type BlockView,
	type SegmentParams,
} from "@clipforge/moments/chapters/offline/segment";
import { TOPIC_CUES, topicCueStrength } from "@clipforge/moments/chapters/offline/discourse-markers";
import { buildChapterCorpus, chapterStartsOf, scoreSegmenter, type Segmenter } from "../chapters-eval.ts";

/** The segmentation's own table, so an experiment scores exactly what ships. */
export const CUES = TOPIC_CUES;
export const topicCue = topicCueStrength;

/** Nats for a chapter starting at each block: the strongest cue in it or in the back half of the one before. */
export function cueBonus(view: BlockView, weight: number, reach: "block" | "around"): Float64Array {
	const n = view.words.length;
	const cue = view.units.map((us) => us.map((u: Unit) => topicCue(u.text.trim())));
	const out = new Float64Array(n);
	for (let b = 1; b < n; b++) {
		let best = Math.max(0, ...cue[b]!);
		if (reach === "around") {
			const before = cue[b - 1]!;
			best = Math.max(best, ...before.slice(Math.floor(before.length / 2)));
		}
		out[b] = weight * best;
	}
	return out;
}

/** Nats per block from tiers: the strongest cue's tier (0 strongest) near its start earns tiers[tier]. */
export function tieredBonus(view: BlockView, tiers: number[]): Float64Array {
	const n = view.words.length;
	const tierOf = (w: number) => (w >= 1 ? 0 : w >= 0.7 ? 1 : w > 0 ? 2 : -1);
	const nats = (u: Unit) => {
		const t = tierOf(topicCue(u.text.trim()));
		return t < 0 ? 0 : tiers[t]!;
	};
	const out = new Float64Array(n);
	for (let b = 1; b < n; b++) {
		const before = view.units[b - 1]!;
		out[b] = Math.max(0, ...view.units[b]!.map(nats), ...before.slice(Math.floor(before.length / 2)).map(nats));
	}
	return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const items = buildChapterCorpus("dev")!;
	const split =
		(change: Partial<SegmentParams>, weight: number, reach: "block" | "around"): Segmenter =>
		(item) => {
			const params = { ...DEFAULT_SEGMENT_PARAMS, ...change };
			const duration = item.transcript.duration;
			const starts = segmentUnits(item.units, duration, params, 3, {
				bonusOf: (view) => cueBonus(view, weight, reach),
			});
			return chapterStartsOf(item, starts);
		};
	const weights = (process.env.WEIGHTS ?? "0,5,10,20,40").split(",").map(Number);
	const prices = (process.env.PRICES ?? "80").split(",").map(Number);
	if (process.env.TIERS) {
		for (const price of prices)
			for (const tiers of process.env.TIERS.split(";")) {
				const t = tiers.split(",").map(Number);
				const segmenter: Segmenter = (item) => {
					const duration = item.transcript.duration;
					const starts = segmentUnits(
						item.units,
						duration,
						{ ...DEFAULT_SEGMENT_PARAMS, chapterPrice: price },
						3,
						{
							bonusOf: (view) => tieredBonus(view, t),
						},
					);
					return chapterStartsOf(item, starts);
				};
				console.log(`price ${price} tiers ${tiers}: ${JSON.stringify(scoreSegmenter(items, segmenter))}`);
			}
		process.exit(0);
	}
	for (const reach of ["block", "around"] as const)
		for (const price of prices)
			for (const weight of weights) {
				if (weight === 0 && reach === "around") continue;
				const s = scoreSegmenter(items, split({ chapterPrice: price }, weight, reach));
				console.log(`${reach} price ${price} weight ${weight}: ${JSON.stringify(s)}`);
			}
}

/** Nats per block from a table of cues in nats (the strongest near its start), as topicCueBonus reads them. */
export function tableBonus(view: BlockView, table: [RegExp, number][]): Float64Array {
	const nats = (u: Unit) => {
		let best = 0;
		for (const [re, w] of table) if (w > best && re.test(u.text.trim())) best = w;
		return best;
	};
	const n = view.words.length;
	const out = new Float64Array(n);
	for (let b = 1; b < n; b++) {
		const before = view.units[b - 1]!;
		out[b] = Math.max(0, ...view.units[b]!.map(nats), ...before.slice(Math.floor(before.length / 2)).map(nats));
	}
	return out;
}

/** The hearing cues (a chair handing over to the next questions) at `hearing` nats, the rest at 15 × strength. */
export function hearingTable(hearing: number, questionsFrom: number): [RegExp, number][] {
	return CUES.map(([re, w]): [RegExp, number] => {
		const source = re.source;
		if (source.includes("questions? now") || source.includes("next (?:set of )?questions?")) return [re, hearing];
		if (source.includes("questions? (?:from|on)")) return [re, questionsFrom];
		return [re, 15 * w];
	});
}
