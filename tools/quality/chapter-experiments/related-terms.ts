/**
 * Tried and dropped (docs/chapters.md): the segmentation's cost of each run of blocks with two
 * changes to its topic model. Co-occurrence smoothing: each word also counts, with a smaller
 * weight, as the terms said in the same windows of the talk as it (cosine of the windows they are
 * said in), so a topic's varied words support each other. A background mixture: a share of each
 * word's probability comes from the whole talk's frequencies, so words every topic uses (a
 * meeting's "remote control") need not be learnt again by each chapter.
 */
export interface SmoothOptions {
	/** The Dirichlet prior of each topic's words, as SegmentParams.prior. */
	prior: number;
	/** Weight of each related term a word also counts as. */
	related: number;
	/** How many related terms a word counts as. */
	neighbours: number;
	/** Blocks per co-occurrence window. */
	window: number;
	/** Share of each word's probability from the whole talk's word frequencies. */
	background: number;
}

export function smoothedCosts(blocks: Int32Array[], vocabulary: number, o: SmoothOptions): Float64Array {
	const n = blocks.length;
	const tokens =
		o.related > 0 ? expand(blocks, vocabulary, o) : blocks.map((ids) => ({ ids, weights: ids.map(() => 1) }));
	const bg = new Float64Array(vocabulary);
	let all = 0;
	for (const ids of blocks)
		for (const id of ids) {
			bg[id]! += 1;
			all++;
		}
	for (let v = 0; v < vocabulary; v++) bg[v] = bg[v]! / Math.max(1, all);
	const cost = new Float64Array(n * (n + 1));
	const counts = new Float64Array(vocabulary);
	const total = vocabulary * o.prior;
	for (let i = 0; i < n; i++) {
		counts.fill(0);
		let words = 0;
		let ll = 0;
		for (let j = i; j < n; j++) {
			const { ids, weights } = tokens[j]!;
			for (let k = 0; k < ids.length; k++) {
				const id = ids[k]!;
				const w = weights[k]!;
				const p = (counts[id]! + o.prior) / (words + total);
				ll += w * Math.log((1 - o.background) * p + o.background * bg[id]!);
				counts[id]! += w;
				words += w;
			}
			cost[i * (n + 1) + j + 1] = -ll;
		}
	}
	return cost;
}

function expand(blocks: Int32Array[], vocabulary: number, o: SmoothOptions) {
	const windows = Math.ceil(blocks.length / o.window);
	const seen: Set<number>[] = Array.from({ length: vocabulary }, () => new Set<number>());
	blocks.forEach((ids, b) => ids.forEach((id) => seen[id]!.add(Math.floor(b / o.window))));
	const byWindow: number[][] = Array.from({ length: windows }, () => []);
	seen.forEach((s, id) => {
		if (s.size >= 2) for (const w of s) byWindow[w]!.push(id);
	});
	const shared = new Map<number, number>();
	for (const ids of byWindow)
		for (let a = 0; a < ids.length; a++)
			for (let b = a + 1; b < ids.length; b++) {
				const key = ids[a]! * vocabulary + ids[b]!;
				shared.set(key, (shared.get(key) ?? 0) + 1);
			}
	const near: [number, number][][] = Array.from({ length: vocabulary }, () => []);
	for (const [key, c] of shared) {
		const a = Math.floor(key / vocabulary);
		const b = key % vocabulary;
		const sim = c / Math.sqrt(seen[a]!.size * seen[b]!.size);
		near[a]!.push([b, sim]);
		near[b]!.push([a, sim]);
	}
	const top = near.map((l) => l.sort((x, y) => y[1] - x[1]).slice(0, o.neighbours));
	return blocks.map((ids) => {
		const outIds: number[] = [];
		const outW: number[] = [];
		for (const id of ids) {
			outIds.push(id);
			outW.push(1);
			for (const [b, sim] of top[id]!) {
				outIds.push(b);
				outW.push(o.related * sim);
			}
		}
		return { ids: Int32Array.from(outIds), weights: Float64Array.from(outW) };
	});
}
