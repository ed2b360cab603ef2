/**
 * The numbers the offline ranker's models read per sentence ("unit"): what the sentence is (its
 * length, disfluency, narration, scene, concreteness, feeling, specificity) and what surrounds it
 * (duration-weighted means over a few sentences either side), and, for passage edges, how the talk
 * changes across the gap before or after it. Pure functions of the annotated units.
 */
import type { Unit } from "../text/units";

/** Per-sentence properties, each scaled to about 0..1. */
export const UNIT_FEATURES = [
	"length", "disfluency", "backchannel", "pastTense", "timeMarkers", "reportedSpeech", "thirdPerson", "firstPerson", "secondPerson", "properNouns",
	"numbers", "feeling", "ratedWords", "question", "laughter", "payoff", "specificity", "pauseBefore", "danglingStart",
] as const;
export type UnitFeature = (typeof UNIT_FEATURES)[number];

/** Properties averaged over the neighbourhood (a passage is more than one sentence). */
export const CONTEXT_FEATURES = [
	"length", "disfluency", "backchannel", "pastTense", "timeMarkers", "reportedSpeech", "thirdPerson", "firstPerson", "properNouns", "numbers", "feeling", "specificity",
] as const satisfies readonly UnitFeature[];

/** Properties compared across a gap to find where a passage starts or ends. */
export const SIDE_FEATURES = [
	"length", "disfluency", "backchannel", "pastTense", "timeMarkers", "reportedSpeech", "thirdPerson", "properNouns", "numbers", "specificity", "pauseBefore",
] as const satisfies readonly UnitFeature[];

export type UnitVector = Record<UnitFeature, number>;

/** Seconds of talk compared on either side of a gap when looking for passage edges. */
export const EDGE_BLOCK_SECONDS = 20;

const CONTEXT_REACH = 3;
const SIDE_REACH = 4;

export function unitVector(u: Unit, idf: Map<string, number>): UnitVector {
	const words = Math.max(1, u.wordCount);
	const specificity = u.terms.length ? u.terms.reduce((sum, t) => sum + (idf.get(t) ?? 0), 0) / u.terms.length : 0;
	return {
		length: Math.log1p(u.wordCount) / 4,
		disfluency: (u.fillers / words) * 5,
		backchannel: u.backchannel ? 1 : 0,
		pastTense: u.pastVerbs / Math.max(1, u.verbs),
		timeMarkers: (u.temporal / words) * 5,
		reportedSpeech: (u.reported / words) * 10,
		thirdPerson: (u.thirdPerson / words) * 5,
		firstPerson: (u.firstPerson / words) * 5,
		secondPerson: (u.secondPerson / words) * 5,
		properNouns: (u.properNouns / words) * 5,
		numbers: (u.numbers / words) * 5,
		feeling: (Math.abs(u.valence) / words) * 3,
		ratedWords: (u.rated / words) * 3,
		question: u.question ? 1 : 0,
		laughter: u.laughter ? 1 : 0,
		payoff: u.payoff ? 1 : 0,
		specificity: specificity / 3,
		pauseBefore: Math.min(3, Number.isFinite(u.gapBefore) ? u.gapBefore : 3) / 3,
		danglingStart: u.dangling ? 1 : 0,
	};
}

/** Duration-weighted mean of `features` over units [from, to). */
function meanOver(units: Unit[], vectors: UnitVector[], from: number, to: number, features: readonly UnitFeature[]): number[] {
	const lo = Math.max(0, from);
	const hi = Math.min(units.length, to);
	if (hi <= lo) return features.map(() => 0);
	let weight = 0;
	const sums = features.map(() => 0);
	for (let k = lo; k < hi; k++) {
		const w = units[k]!.end - units[k]!.start + 0.1;
		weight += w;
		features.forEach((f, n) => (sums[n]! += vectors[k]![f] * w));
	}
	return sums.map((s) => s / weight);
}

/** The moment model's input for unit k: its own properties, then its neighbourhood's (a few sentences either side). */
export function momentInput(units: Unit[], vectors: UnitVector[], k: number): number[] {
	return [...UNIT_FEATURES.map((f) => vectors[k]![f]), ...meanOver(units, vectors, k - CONTEXT_REACH, k + CONTEXT_REACH + 1, CONTEXT_FEATURES)];
}

/** Names of momentInput's entries, in order. */
export const MOMENT_INPUTS = [...UNIT_FEATURES, ...CONTEXT_FEATURES.map((f) => `around:${f}`)];

/**
 * The start model's input for a passage starting at unit k: how the talk after the gap differs
 * from the talk before it, the topical break at the gap, the pause, and the opening's shape.
 */
export function startInput(units: Unit[], vectors: UnitVector[], continuity: number[], k: number): number[] {
	const after = meanOver(units, vectors, k, k + SIDE_REACH, SIDE_FEATURES);
	// Nothing is said before the first sentence: no change to measure (its topic break still counts).
	const before = k > 0 ? meanOver(units, vectors, k - SIDE_REACH, k, SIDE_FEATURES) : after;
	const v = vectors[k]!;
	return [...after.map((a, n) => a - before[n]!), 1 - (k > 0 ? continuity[k - 1]! : 0), v.pauseBefore, v.danglingStart, v.backchannel];
}

/** The end model's input for a passage ending with unit k. */
export function endInput(units: Unit[], vectors: UnitVector[], continuity: number[], k: number): number[] {
	const inside = meanOver(units, vectors, k - SIDE_REACH + 1, k + 1, SIDE_FEATURES);
	const after = k + 1 < units.length ? meanOver(units, vectors, k + 1, k + 1 + SIDE_REACH, SIDE_FEATURES) : inside;
	const v = vectors[k]!;
	return [...inside.map((a, n) => a - after[n]!), 1 - (continuity[k] ?? 0), k + 1 < units.length ? vectors[k + 1]!.pauseBefore : 1, v.payoff, v.question, v.backchannel];
}
