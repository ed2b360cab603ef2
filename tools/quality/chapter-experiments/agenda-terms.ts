/**
 * `npx tsx tools/quality/chapter-experiments/agenda-terms.ts`: a meeting's opening often lists its
 * topics, so the content terms said in its first share (the agenda) count `times` over wherever
 * they are said later, making the chapters differ by which agenda item they take up. Scored on
 * QMSum train's **dev** series only.
 */
import type { ChapterUnit as Unit } from "@clipforge/moments/chapters/offline/chapter-units";
import { DEFAULT_SEGMENT_PARAMS, segmentUnits } from "@clipforge/moments/chapters/offline/segment";
import { buildChapterCorpus, chapterStartsOf, scoreSegmenter, type Segmenter } from "../chapters-eval.ts";

export function withAgendaTerms(units: Unit[], duration: number, share: number, times: number): Unit[] {
	const until = units[0]!.start + duration * share;
	const agenda = new Set(units.filter((u) => u.start < until).flatMap((u) => u.terms));
	return units.map((u) => ({
		...u,
		terms: u.terms.flatMap((t) => (agenda.has(t) ? Array.from({ length: times }, () => t) : [t])),
	}));
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const items = buildChapterCorpus("dev")!;
	const list = (name: string, fallback: string) => (process.env[name] ?? fallback).split(",").map(Number);
	for (const share of list("SHARES", "0.05,0.1"))
		for (const times of list("TIMES", "2,3"))
			for (const price of list("PRICES", "100,140")) {
				const segmenter: Segmenter = (item) => {
					const duration = item.transcript.duration;
					const units = withAgendaTerms(item.units, duration, share, times);
					const starts = segmentUnits(units, duration, { ...DEFAULT_SEGMENT_PARAMS, chapterPrice: price });
					return chapterStartsOf(item, starts);
				};
				console.log(
					`agenda ${share} ×${times} price ${price}: ${JSON.stringify(scoreSegmenter(items, segmenter))}`,
				);
			}
}
