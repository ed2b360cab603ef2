/**
 * `npx tsx tools/quality/chapter-experiments/style-terms.ts`: how a stretch of talk is spoken read as
 * words of its own beside the content words: each sentence adds pseudo-terms for its length
 * (short/medium/long), for a backchannel ("yeah", "mm-hmm") and for a question, so a presentation
 * (long sentences, few backchannels) and a discussion (short turns, questions) differ in the topic
 * model even when they share their vocabulary. Scored on QMSum train's **dev** series only.
 */
import type { ChapterUnit as Unit } from "@clipforge/moments/chapters/offline/chapter-units";
import { DEFAULT_SEGMENT_PARAMS, segmentUnits, type SegmentParams } from "@clipforge/moments/chapters/offline/segment";
import { buildChapterCorpus, chapterStartsOf, scoreSegmenter, type Segmenter } from "../chapters-eval.ts";
import { cueBonus } from "./topic-cues.ts";

export function styleTerms(u: Unit, repeat: number): string[] {
	const out: string[] = [];
	const length = u.wordCount <= 3 ? "short" : u.wordCount <= 12 ? "medium" : "long";
	const add = (t: string) => {
		for (let r = 0; r < repeat; r++) out.push(t);
	};
	add(`#len:${length}`);
	if (u.backchannel) add("#backchannel");
	if (u.question) add("#question");
	return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const items = buildChapterCorpus("dev")!;
	const split =
		(change: Partial<SegmentParams>, repeat: number, cueWeight: number): Segmenter =>
		(item) => {
			const params = { ...DEFAULT_SEGMENT_PARAMS, ...change };
			const duration = item.transcript.duration;
			const units = repeat
				? item.units.map((u) => ({ ...u, terms: [...u.terms, ...styleTerms(u, repeat)] }))
				: item.units;
			const starts = segmentUnits(
				units,
				duration,
				params,
				3,
				cueWeight ? { bonusOf: (view) => cueBonus(view, cueWeight, "around") } : {},
			);
			return chapterStartsOf(item, starts);
		};
	const repeats = (process.env.REPEATS ?? "0,1,2,4").split(",").map(Number);
	const prices = (process.env.PRICES ?? "80").split(",").map(Number);
	const cues = (process.env.CUES ?? "0").split(",").map(Number);
	for (const cue of cues)
		for (const price of prices)
			for (const repeat of repeats) {
				const s = scoreSegmenter(items, split({ chapterPrice: price }, repeat, cue));
				console.log(`cue ${cue} price ${price} style repeat ${repeat}: ${JSON.stringify(s)}`);
			}
}
