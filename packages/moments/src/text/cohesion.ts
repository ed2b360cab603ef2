/**
 * Lexical cohesion over time, TextTiling-style (Hearst 1997): at each gap between two sentences,
 * how much the talk in the `blockSeconds` before shares its words with the talk after (cosine of
 * IDF-weighted stem counts). Topic shifts are the deep valleys of that curve; passages are the
 * stretches between them.
 */
import type { Unit } from "./units.ts";

/** Inverse document frequency of each stem over the units (sentences are the documents). */
export function idfOf(units: Pick<Unit, "terms">[]): Map<string, number> {
	const df = new Map<string, number>();
	for (const u of units) for (const t of new Set(u.terms)) df.set(t, (df.get(t) ?? 0) + 1);
	const idf = new Map<string, number>();
	for (const [t, n] of df) idf.set(t, Math.log((1 + units.length) / (1 + n)) + 1);
	return idf;
}

/** continuity[g] ∈ [0, 1]: similarity across the gap after unit g (the last entry is 0). */
export function continuityCurve(units: Unit[], idf: Map<string, number>, blockSeconds: number): number[] {
	const curve: number[] = [];
	for (let g = 0; g < units.length; g++) {
		if (g === units.length - 1) {
			curve.push(0);
			break;
		}
		const at = units[g]!.end;
		const before = new Map<string, number>();
		const after = new Map<string, number>();
		for (let i = g; i >= 0 && units[i]!.end > at - blockSeconds; i--)
			for (const t of units[i]!.terms) before.set(t, (before.get(t) ?? 0) + (idf.get(t) ?? 1));
		for (let i = g + 1; i < units.length && units[i]!.start < at + blockSeconds; i++)
			for (const t of units[i]!.terms) after.set(t, (after.get(t) ?? 0) + (idf.get(t) ?? 1));
		curve.push(cosine(before, after));
	}
	return curve;
}

export function cosine(a: Map<string, number>, b: Map<string, number>): number {
	let dot = 0;
	let na = 0;
	let nb = 0;
	for (const [t, x] of a) {
		na += x * x;
		const y = b.get(t);
		if (y) dot += x * y;
	}
	for (const y of b.values()) nb += y * y;
	return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/**
 * Passage edges: gaps whose depth (how far the smoothed curve dips below the peaks on either side)
 * stands out (> mean + `cutoff`·sd), at least `minSeconds` apart. Returns the index of the first unit
 * of each passage, starting with 0.
 */
export function passageStarts(units: Unit[], curve: number[], cutoff = 0.5, minSeconds = 30): number[] {
	const n = curve.length - 1;
	if (n <= 0) return [0];
	const smooth = curve.slice(0, n).map((_, g) => {
		let sum = 0;
		let count = 0;
		for (let k = g - 2; k <= g + 2; k++) {
			if (k >= 0 && k < n) {
				sum += curve[k]!;
				count++;
			}
		}
		return sum / count;
	});
	const depth = smooth.map((v, g) => {
		let left = v;
		for (let k = g; k >= 0 && smooth[k]! >= left; k--) left = smooth[k]!;
		let right = v;
		for (let k = g; k < n && smooth[k]! >= right; k++) right = smooth[k]!;
		return left - v + (right - v);
	});
	const mean = depth.reduce((a, b) => a + b, 0) / n;
	const sd = Math.sqrt(depth.reduce((a, b) => a + (b - mean) ** 2, 0) / n);
	const starts = [0];
	for (let g = 1; g < n - 1; g++) {
		const isValley = depth[g]! >= depth[g - 1]! && depth[g]! >= depth[g + 1]!;
		if (
			isValley &&
			depth[g]! > mean + cutoff * sd &&
			units[g + 1]!.start - units[starts[starts.length - 1]!]!.start >= minSeconds
		)
			starts.push(g + 1);
	}
	return starts;
}
