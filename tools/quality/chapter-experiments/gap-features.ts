/**
 * Tried and dropped (docs/chapters.md): what the talk looks like at each gap between two of the
 * segmentation's blocks, for a logistic boundary model fitted on the dev meetings (fit-gaps.ts).
 * Every measure is in blocks, not seconds, so it reads a 10-minute clip and a 2-hour talk alike.
 */
import type { ChapterUnit as Unit } from "@clipforge/moments/chapters/offline/chapter-units";
import { markerStrength } from "@clipforge/moments/chapters/offline/discourse-markers";
import type { BlockView } from "@clipforge/moments/chapters/offline/segment";
import { cosine } from "../chapters-eval.ts";

export const GAP_FEATURES = [
	"gain2",
	"gain5",
	"gain12",
	"cosine2",
	"cosine5",
	"depth5",
	"novelty",
	"ending",
	"peak5",
	"questionsAfter",
	"markerAfter",
	"edge",
] as const;

/** One row of GAP_FEATURES for each gap g = 1..n-1 (before block g). */
export function gapFeatures(view: BlockView): number[][] {
	const n = view.words.length;
	const gains = [2, 5, 12].map((w) => gapsOf(n, (g) => splitGain(view, g, w)));
	const cosines = [2, 5].map((w) => gapsOf(n, (g) => cosine(counts(view, g - w, g), counts(view, g, g + w))));
	const depth = depthOf(cosines[1]!);
	const firstSeen = firstBlockOf(view);
	const lastSeen = lastBlockOf(view);
	return gapsOf(n, (g) => {
		const at = g - 1;
		return [
			gains[0]![at]!,
			gains[1]![at]!,
			gains[2]![at]!,
			cosines[0]![at]!,
			cosines[1]![at]!,
			depth[at]!,
			share(view, g, g + 3, (id) => firstSeen[id]! >= g),
			share(view, g - 3, g, (id) => lastSeen[id]! < g),
			gains[1]![at]! - Math.max(...[-3, -2, -1, 1, 2, 3].map((d) => gains[1]![at + d] ?? -Infinity)),
			questionShare(view.units[g]!),
			Math.max(0, ...view.units[g]!.slice(0, 3).map((u) => markerStrength(u.text))),
			Math.min(g, n - g) / n,
		];
	});
}

function gapsOf<T>(n: number, f: (g: number) => T): T[] {
	return Array.from({ length: Math.max(0, n - 1) }, (_, k) => f(k + 1));
}

/**
 * Nats per word that splitting w blocks either side of gap g into two topics gains over reading
 * them as one: the local version of what the whole-video search weighs.
 */
function splitGain(view: BlockView, g: number, w: number): number {
	const n = view.words.length;
	const a = Math.max(0, g - w);
	const b = Math.min(n, g + w);
	const c = (i: number, j: number) => view.cost[i * (n + 1) + j]!;
	let words = 0;
	for (let k = a; k < b; k++) words += view.words[k]!.length;
	return words > 0 ? (c(a, b) - c(a, g) - c(g, b)) / words : 0;
}

function counts(view: BlockView, from: number, to: number): Map<number, number> {
	const m = new Map<number, number>();
	for (let b = Math.max(0, from); b < Math.min(view.words.length, to); b++)
		for (const id of view.words[b]!) m.set(id, (m.get(id) ?? 0) + 1);
	return m;
}

/** TextTiling's depth: how far the similarity climbs on either side before it falls again. */
function depthOf(similarity: number[]): number[] {
	return similarity.map((v, g) => {
		let left = v;
		for (let k = g; k >= 0 && similarity[k]! >= left; k--) left = similarity[k]!;
		let right = v;
		for (let k = g; k < similarity.length && similarity[k]! >= right; k++) right = similarity[k]!;
		return left - v + (right - v);
	});
}

function firstBlockOf(view: BlockView): Int32Array {
	const first = new Int32Array(view.vocabulary).fill(view.words.length);
	for (let b = view.words.length - 1; b >= 0; b--) for (const id of view.words[b]!) first[id] = b;
	return first;
}

function lastBlockOf(view: BlockView): Int32Array {
	const last = new Int32Array(view.vocabulary).fill(-1);
	view.words.forEach((ids, b) => ids.forEach((id) => (last[id] = b)));
	return last;
}

/** The share of the words in blocks from..to-1 that `test` holds for (new words, words said for the last time). */
function share(view: BlockView, from: number, to: number, test: (id: number) => boolean): number {
	let hits = 0;
	let all = 0;
	for (let b = Math.max(0, from); b < Math.min(view.words.length, to); b++)
		for (const id of view.words[b]!) {
			all++;
			if (test(id)) hits++;
		}
	return all > 0 ? hits / all : 0;
}

function questionShare(units: Unit[]): number {
	return units.length ? units.filter((u) => u.question).length / units.length : 0;
}
