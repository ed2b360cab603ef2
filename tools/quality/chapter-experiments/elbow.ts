/**
 * `npx tsx tools/quality/chapter-experiments/elbow.ts`: the number of chapters from the meeting's own
 * curve of cost against count instead of a fixed price: the k-th chapter is kept while it gains at
 * least `floor` nats and at least `ratio` times what the second chapter gained (the likeliest split
 * into k at each k, length prior and topic cues included). Scored on QMSum train's **dev** series only.
 */
import {
	bestSplit,
	DEFAULT_SEGMENT_PARAMS,
	segmentUnits,
	type Search,
} from "@clipforge/moments/chapters/offline/segment";
import { buildChapterCorpus, chapterStartsOf, scoreSegmenter, type Segmenter } from "../chapters-eval.ts";

function totalCost(search: Search, edges: number[]): number {
	const n = search.blocks;
	const bounds = [0, ...edges, n];
	let total = 0;
	for (let c = 0; c + 1 < bounds.length; c++) {
		total += search.cost[bounds[c]! * (n + 1) + bounds[c + 1]!]!;
		if (c > 0) total -= search.bonus?.[bounds[c]!] ?? 0;
	}
	return total;
}

export function elbowSplit(search: Search, ratio: number, floor: number, most = 12): number[] {
	const splits: { edges: number[]; cost: number }[] = [];
	for (let k = 1; k <= most; k++) {
		const edges = bestSplit(search, 0, k);
		if (!edges) break;
		splits.push({ edges, cost: totalCost(search, edges) });
	}
	if (splits.length < 2) return splits[0]?.edges ?? [];
	const first = splits[0]!.cost - splits[1]!.cost;
	let chosen = 0;
	for (let k = 1; k < splits.length; k++) {
		const gain = splits[k - 1]!.cost - splits[k]!.cost;
		if (gain < floor || gain < ratio * first) break;
		chosen = k;
	}
	return splits[chosen]!.edges;
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const items = buildChapterCorpus("dev")!;
	const list = (name: string, fallback: string) => (process.env[name] ?? fallback).split(",").map(Number);
	for (const ratio of list("RATIOS", "0,0.2,0.35,0.5"))
		for (const floor of list("FLOORS", "40,60,80,100")) {
			const segmenter: Segmenter = (item) => {
				const duration = item.transcript.duration;
				const starts = segmentUnits(item.units, duration, DEFAULT_SEGMENT_PARAMS, 3, {
					split: (search) => elbowSplit(search, ratio, floor),
				});
				return chapterStartsOf(item, starts);
			};
			console.log(`ratio ${ratio} floor ${floor}: ${JSON.stringify(scoreSegmenter(items, segmenter))}`);
		}
}
