/**
 * The numbers the offline ranker's models read per sentence ("unit"): what the sentence is (its
 * length, disfluency, narration, scene, concreteness, feeling, specificity) and what surrounds it
 * (duration-weighted means over a few sentences either side), and, for passage edges, how the talk
 * changes across the gap before or after it. Pure functions of the annotated units.
 */
import type { Unit } from "../../text/units.ts";

/**
 * How a sentence is said (length, disfluency, backchannel) and whether it narrates: the head of
 * every list below, in this order (the models' inputs follow it).
 */
const DELIVERY_AND_NARRATION = [
	"length",
	"disfluency",
	"backchannel",
	"pastTense",
	"timeMarkers",
	"reportedSpeech",
	"thirdPerson",
] as const;

/** Per-sentence properties, each scaled to about 0..1. */
export const UNIT_FEATURES = [
	...DELIVERY_AND_NARRATION,
	"firstPerson",
	"secondPerson",
	"properNouns",
	"numbers",
	"feeling",
	"ratedWords",
	"question",
	"laughter",
	"payoff",
	"specificity",
	"pauseBefore",
	"danglingStart",
	"chatter",
	"reasoning",
	"storyOpener",
	"returnMarker",
	"contentDensity",
	"centrality",
] as const;
export type UnitFeature = (typeof UNIT_FEATURES)[number];

/** Properties averaged over the neighbourhood (a passage is more than one sentence). */
export const CONTEXT_FEATURES = [
	...DELIVERY_AND_NARRATION,
	"firstPerson",
	"properNouns",
	"numbers",
	"feeling",
	"chatter",
	"reasoning",
	"contentDensity",
	"centrality",
] as const satisfies readonly UnitFeature[];

/**
 * What the moment model reads of a sentence itself: everything but its words' rarity in this
 * video. Planted highlights bring words the talk around them never uses, so rarity would find the
 * planting rather than the moment (and it means different things in a minute and in three hours);
 * it still feeds the edges and the breakdown's detail.
 */
export const MOMENT_OWN_FEATURES = UNIT_FEATURES.filter((f) => f !== "specificity");

/** Properties compared across a gap to find where a passage starts or ends. */
export const SIDE_FEATURES = [
	...DELIVERY_AND_NARRATION,
	"properNouns",
	"numbers",
	"specificity",
	"pauseBefore",
	"chatter",
	"reasoning",
	"centrality",
] as const satisfies readonly UnitFeature[];

export type UnitVector = Record<UnitFeature, number>;

/** Seconds of talk compared on either side of a gap when looking for passage edges. */
export const EDGE_BLOCK_SECONDS = 20;

const SIDE_REACH = 4;

/**
 * Every sentence's vector. What depends on the video's length or pace is measured against the
 * video itself, so a 60-second talk and a 3-hour meeting read alike: a word's rarity against the
 * rarest a word can be in this transcript, a pause against the video's usual pause, closeness to
 * the video's topic against its average closeness.
 */
export function unitVectors(units: Unit[], idf: Map<string, number>): UnitVector[] {
	const centrality = centralityOf(units, idf);
	const meanCentrality = centrality.reduce((a, b) => a + b, 0) / Math.max(1, centrality.length);
	const gaps = units
		.map((u) => u.gapBefore)
		.filter((g) => Number.isFinite(g))
		.sort((a, b) => a - b);
	const usualGap = Math.max(0.2, gaps[Math.floor(gaps.length / 2)] ?? 0.5);
	const rarest = Math.log((1 + units.length) / 2) + 1;
	return units.map((u, k) => unitVector(u, idf, { centrality: centrality[k]! - meanCentrality, usualGap, rarest }));
}

interface VideoScale {
	/** The sentence's closeness to the video's topic minus the video's average closeness. */
	centrality: number;
	/** The video's median pause between sentences (s). */
	usualGap: number;
	/** The IDF of a word said once in this transcript. */
	rarest: number;
}

export function unitVector(u: Unit, idf: Map<string, number>, scale: VideoScale): UnitVector {
	const words = Math.max(1, u.wordCount);
	const specificity = u.terms.length
		? u.terms.reduce((sum, t) => sum + (idf.get(t) ?? 0), 0) / u.terms.length / scale.rarest
		: 0;
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
		// A sentence of nothing but names or numbers is a list read out, not more of a moment than one that has a few.
		properNouns: Math.min(1, (u.properNouns / words) * 5),
		numbers: Math.min(1, (u.numbers / words) * 5),
		feeling: (Math.abs(u.valence) / words) * 3,
		ratedWords: (u.rated / words) * 3,
		question: u.question ? 1 : 0,
		laughter: u.laughter ? 1 : 0,
		payoff: u.payoff ? 1 : 0,
		specificity,
		pauseBefore:
			Math.min(4, (Number.isFinite(u.gapBefore) ? u.gapBefore : 4 * scale.usualGap) / scale.usualGap) / 4,
		danglingStart: u.dangling ? 1 : 0,
		chatter: Math.min(1, u.chatter / 2),
		reasoning: Math.min(1, u.reasoning / 2),
		storyOpener: u.storyOpener ? 1 : 0,
		returnMarker: u.returnMarker ? 1 : 0,
		// Numbers are terms for matching, but a string of them read out is not dense content.
		contentDensity: Math.max(0, u.terms.length - u.numbers) / words,
		centrality: scale.centrality,
	};
}

const CENTRALITY_REACH_SECONDS = 30;

/**
 * Per sentence: the cosine between the talk within ±30 s of it and the whole video (IDF-weighted
 * term counts). Meetings are asked about their main topics; chatter and tangents sit far from them.
 * One sliding window, so it costs one pass over the terms.
 */
export function centralityOf(units: Unit[], idf: Map<string, number>): number[] {
	const whole = new Map<string, number>();
	for (const u of units) for (const t of u.terms) whole.set(t, (whole.get(t) ?? 0) + (idf.get(t) ?? 1));
	let wholeNorm = 0;
	for (const v of whole.values()) wholeNorm += v * v;
	wholeNorm = Math.sqrt(wholeNorm);
	const counts = new Map<string, number>();
	let dot = 0;
	let normSquared = 0;
	const change = (u: Unit, by: 1 | -1) => {
		for (const t of u.terms) {
			const w = idf.get(t) ?? 1;
			const before = counts.get(t) ?? 0;
			const after = before + by;
			counts.set(t, after);
			normSquared += w * w * (after * after - before * before);
			dot += by * w * whole.get(t)!;
		}
	};
	const out: number[] = [];
	let lo = 0;
	let hi = 0;
	for (let k = 0; k < units.length; k++) {
		const centre = (units[k]!.start + units[k]!.end) / 2;
		while (hi < units.length && units[hi]!.start <= centre + CENTRALITY_REACH_SECONDS) change(units[hi++]!, 1);
		while (lo < hi && units[lo]!.end < centre - CENTRALITY_REACH_SECONDS) change(units[lo++]!, -1);
		out.push(
			normSquared > 1e-9 && wholeNorm > 0
				? Math.max(0, Math.min(1, dot / (Math.sqrt(normSquared) * wholeNorm)))
				: 0,
		);
	}
	return out;
}

/** Duration-weighted mean of `features` over units [from, to). */
function meanOver(
	units: Unit[],
	vectors: UnitVector[],
	from: number,
	to: number,
	features: readonly UnitFeature[],
): number[] {
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

/** The moment model's input for unit k: its own properties, then the talk's within 10 s either side. */
export function momentInput(units: Unit[], vectors: UnitVector[], k: number): number[] {
	const [from, to] = reachOf(units, k, CONTEXT_SECONDS);
	return [...MOMENT_OWN_FEATURES.map((f) => vectors[k]![f]), ...meanOver(units, vectors, from, to, CONTEXT_FEATURES)];
}

/** Seconds of talk either side of a sentence that its neighbourhood reading averages over. */
const CONTEXT_SECONDS = 10;

/**
 * Units [from, to) said within `seconds` of unit k, and at least its neighbours: a neighbourhood
 * in time, not in sentences, so talk split into short sentences (Whisper) and into whole turns
 * (the local engine) reads alike, and a long turn before a moment does not borrow the moment's reading.
 */
function reachOf(units: Unit[], k: number, seconds: number): [number, number] {
	let from = k - 1;
	while (from > 0 && units[from - 1]!.end >= units[k]!.start - seconds) from--;
	let to = k + 2;
	while (to < units.length && units[to]!.start <= units[k]!.end + seconds) to++;
	return [from, to];
}

/** Names of momentInput's entries, in order. */
export const MOMENT_INPUTS = [...MOMENT_OWN_FEATURES, ...CONTEXT_FEATURES.map((f) => `around:${f}`)];

/**
 * The start model's input for a passage starting at unit k: how the talk after the gap differs
 * from the talk before it, the topical break at the gap, the pause, and the opening's shape.
 */
export function startInput(units: Unit[], vectors: UnitVector[], continuity: number[], k: number): number[] {
	const after = meanOver(units, vectors, k, k + SIDE_REACH, SIDE_FEATURES);
	// Nothing is said before the first sentence: no change to measure (its topic break still counts).
	const said = pastListeners(units, k, -1) + 1;
	const before = said > 0 ? meanOver(units, vectors, said - SIDE_REACH, said, SIDE_FEATURES) : after;
	const v = vectors[k]!;
	return [
		...after.map((a, n) => a - before[n]!),
		1 - (k > 0 ? continuity[k - 1]! : 0),
		dipAt(continuity, k - 1),
		v.pauseBefore,
		v.danglingStart,
		v.backchannel,
		v.storyOpener,
		v.returnMarker,
		v.question,
	];
}

/** Names of startInput's entries after the side features' changes. */
export const START_EXTRAS = [
	"topicBreak",
	"topicDip",
	"pauseBefore",
	"danglingStart",
	"backchannel",
	"storyOpener",
	"returnMarker",
	"question",
];
/** Names of endInput's entries after the side features' changes. */
export const END_EXTRAS = [
	"topicBreak",
	"topicDip",
	"pauseAfter",
	"payoff",
	"question",
	"backchannel",
	"laughter",
	"nextReturns",
	"nextOpensStory",
	"nextLaughs",
];

/** How much deeper the continuity curve is at gap g than at the gaps around it (a topic shift stands out locally). */
function dipAt(continuity: number[], g: number): number {
	if (g < 0 || g >= continuity.length - 1) return 0;
	let sum = 0;
	let count = 0;
	for (let k = g - 3; k <= g + 3; k++) {
		if (k !== g && k >= 0 && k < continuity.length - 1) {
			sum += continuity[k]!;
			count++;
		}
	}
	return count ? sum / count - continuity[g]! : 0;
}

/** The end model's input for a passage ending with unit k. */
export function endInput(units: Unit[], vectors: UnitVector[], continuity: number[], k: number): number[] {
	const inside = meanOver(units, vectors, k - SIDE_REACH + 1, k + 1, SIDE_FEATURES);
	// What the talk does next is read past a listener's "Mm-hmm.": the speaker may go on with the same story.
	const resumes = pastListeners(units, k, 1);
	const after =
		resumes < units.length ? meanOver(units, vectors, resumes, resumes + SIDE_REACH, SIDE_FEATURES) : inside;
	const v = vectors[k]!;
	const next = vectors[resumes];
	return [
		...inside.map((a, n) => a - after[n]!),
		1 - (continuity[k] ?? 0),
		dipAt(continuity, k),
		next ? next.pauseBefore : 1,
		v.payoff,
		v.question,
		v.backchannel,
		v.laughter,
		next ? next.returnMarker : 1,
		next ? next.storyOpener : 0,
		next ? next.laughter : 0,
	];
}

/** Listener turns skipped at most when looking for where the speaker's talk resumes. */
const LISTENER_TURNS = 2;

/**
 * The first sentence after unit k (step 1) or before it (step −1) that is not a listener's
 * backchannel, looking past at most LISTENER_TURNS of them: where the speaker's own talk goes on.
 */
export function pastListeners(units: Unit[], k: number, step: 1 | -1): number {
	let n = k + step;
	for (let skipped = 0; skipped < LISTENER_TURNS && units[n]?.backchannel; skipped++) n += step;
	return n;
}
