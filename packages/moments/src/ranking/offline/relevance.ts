/**
 * How much each moment of the talk is about the prompt. Sentences are scored with BM25 over stems
 * (plus a bonus where two prompt words stand together), then the scores are spread over time with a
 * Gaussian (an answer in conversation spans many short turns, so the neighbourhood counts), and the
 * passage each moment belongs to (TextTiling edges over 60 s blocks) adds its own BM25 score, so a
 * passage about the prompt as a whole outranks one stray mention. Moods ("funny") add the density
 * of their signals; what the prompt leaves out ("not the budget") takes away. The words the
 * best-matching sentences share are borrowed at a quarter weight (pseudo-relevance feedback), so a
 * paraphrase still finds its passage. Runs in a few milliseconds per hour of talk.
 */
import { continuityCurve, passageStarts } from "../../text/cohesion.ts";

import type { Unit } from "../../text/units.ts";
import type { Mood, ReadPrompt } from "./prompt.ts";

/** Spread of one sentence's relevance over time (s): answers in conversation run for minutes. */
const SPREAD_SECONDS = 40;
const PASSAGE_BLOCK_SECONDS = 60;
/** How much the whole passage counts beside the local density. */
const PASSAGE_WEIGHT = 2;
const K1 = 1.2;
/** Words borrowed from the best-matching sentences, and their weight beside the prompt's own (1). */
const FEEDBACK_TERMS = 5;
const FEEDBACK_WEIGHT = 0.25;
const FEEDBACK_SENTENCES = 8;
const B = 0.75;

export interface Relevance {
	/** Combined relevance per second of the frame, 0..~3 (local density 0..1 + passage 0..2). */
	perSecond: Float64Array;
	/** Raw BM25 per unit (0 when nothing matches). */
	perUnit: number[];
	/** Prompt stems found anywhere in the transcript. */
	found: Set<string>;
	/** Sum of the prompt terms' weights × IDF: 1 is "every term matched". */
	fullWeight: number;
	/** Share of the topic's weight (terms × IDF) said anywhere in the search window: 1 = every topic word. */
	coverage: number;
	idf: (stem: string) => number;
	origin: number;
}

/** Relevance over the frame [from, to]; what is "found" counts only inside the search window (the prompt's place). */
export function relevanceOf(
	units: Unit[],
	prompt: ReadPrompt,
	from: number,
	to: number,
	search: { start: number; end: number } = { start: from, end: to },
): Relevance {
	const n = units.length;
	const df = new Map<string, number>();
	for (const u of units) for (const t of new Set(u.keys)) df.set(t, (df.get(t) ?? 0) + 1);
	const idf = (t: string) => Math.log(1 + (n - (df.get(t) ?? 0) + 0.5) / ((df.get(t) ?? 0) + 0.5));
	const weight = new Map(prompt.terms.map((t) => [t.stem, t.weight] as const));
	const local = new Map(prompt.terms.filter((t) => !t.context).map((t) => [t.stem, t.weight] as const));
	for (const t of prompt.terms) if (t.context && !local.has(t.stem)) local.set(t.stem, t.weight);
	const avg = units.reduce((s, u) => s + u.keys.length, 0) / Math.max(1, n);
	const bm25 = bm25Of(idf);
	const moodScore = moodScorer(prompt.moods);
	const excludedScore = exclusionScorer(prompt);
	if (FEEDBACK_TERMS > 0) {
		// Pseudo-relevance feedback: the words the best-matching sentences share stand in for a paraphrase.
		for (const [t, w] of feedbackTerms(units, (u) => bm25(u.keys, local, avg), idf, local)) {
			local.set(t, w);
			weight.set(t, w);
		}
	}
	const perUnit = units.map((u) => {
		let score = bm25(u.keys, local, avg);
		for (const [a, b] of prompt.phrases) {
			for (let k = 0; k + 1 < u.keys.length; k++) if (u.keys[k] === a && u.keys[k + 1] === b) score += idf(a);
		}
		score += moodScore(u);
		// What the prompt leaves out cancels what it asks for in the same sentence.
		return excludedScore ? Math.max(0, score - 2 * excludedScore(u)) : score;
	});

	const seconds = Math.max(1, Math.ceil(to - from) + 1);
	const density = spreadOverSeconds(units, perUnit, from, seconds);
	if (weight.size > 0 && n > 2) addPassageRelevance(density, units, { df, weight, bm25 }, from);
	const { found, coverage } = foundInSearch(units, prompt, weight, idf, search);
	const fullWeight = prompt.terms.reduce((s, t) => s + t.weight * idf(t.stem), 0);
	return { perSecond: density, perUnit, found, fullWeight, coverage, idf, origin: from };
}

/** The prompt's stems said inside the search window, and the share of the topic's weight they make. */
function foundInSearch(
	units: Unit[],
	prompt: ReadPrompt,
	weight: Map<string, number>,
	idf: (t: string) => number,
	search: { start: number; end: number },
): { found: Set<string>; coverage: number } {
	const found = new Set<string>();
	for (const u of units)
		if (u.start >= search.start - 0.01 && u.end <= search.end + 0.01)
			for (const t of u.keys) if (weight.has(t)) found.add(t);
	const topic = prompt.terms.filter((t) => !t.context);
	const topicWeight = topic.reduce((s, t) => s + t.weight * idf(t.stem), 0);
	const coverage =
		topicWeight > 0
			? topic.filter((t) => found.has(t.stem)).reduce((s, t) => s + t.weight * idf(t.stem), 0) / topicWeight
			: 1;
	return { found, coverage };
}

type Bm25 = (terms: string[], query: Map<string, number>, average: number) => number;

/** BM25 of a bag of stems against weighted query stems, with the transcript's IDF. */
function bm25Of(idf: (t: string) => number): Bm25 {
	return (terms, query, average) => {
		const tf = new Map<string, number>();
		for (const t of terms) if (query.has(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
		let score = 0;
		for (const [t, f] of tf)
			score +=
				(query.get(t)! * idf(t) * f * (K1 + 1)) /
				(f + K1 * (1 - B + (B * terms.length) / Math.max(1e-6, average)));
		return score;
	};
}

/** Each sentence's relevance spread over the seconds around its centre (a Gaussian), normalised to a peak of 1. */
function spreadOverSeconds(units: Unit[], perUnit: number[], from: number, seconds: number): Float64Array {
	const density = new Float64Array(seconds);
	const reach = Math.ceil(3 * SPREAD_SECONDS);
	units.forEach((u, k) => {
		const value = perUnit[k]!;
		if (!value) return;
		const centre = (u.start + u.end) / 2 - from;
		for (let t = Math.max(0, Math.floor(centre - reach)); t < Math.min(seconds, centre + reach); t++)
			density[t]! += value * Math.exp(-((t - centre) ** 2) / (2 * SPREAD_SECONDS ** 2));
	});
	const peak = density.reduce((m, v) => Math.max(m, v), 0);
	if (peak > 0) for (let t = 0; t < seconds; t++) density[t]! /= peak;
	return density;
}

/**
 * Adds each topical passage's BM25 (relative to the best passage's, times PASSAGE_WEIGHT) to every
 * second it spans: a sentence inside a passage about the prompt counts even when its own words do not.
 */
function addPassageRelevance(
	density: Float64Array,
	units: Unit[],
	terms: { df: Map<string, number>; weight: Map<string, number>; bm25: Bm25 },
	from: number,
): void {
	const n = units.length;
	const seconds = density.length;
	const starts = passageStarts(units, continuityCurve(units, idfFromDf(terms.df, n), PASSAGE_BLOCK_SECONDS));
	const passages = starts.map((first, p) => units.slice(first, starts[p + 1] ?? n));
	const averageLength = passages.reduce((s, p) => s + p.reduce((c, u) => c + u.keys.length, 0), 0) / passages.length;
	const scores = passages.map((p) =>
		terms.bm25(
			p.flatMap((u) => u.keys),
			terms.weight,
			averageLength,
		),
	);
	const best = scores.reduce((m, v) => Math.max(m, v), 1e-9);
	passages.forEach((p, k) => {
		for (
			let t = Math.max(0, Math.floor(p[0]!.start - from));
			t <= Math.min(seconds - 1, Math.ceil(p[p.length - 1]!.end - from));
			t++
		)
			density[t]! += (PASSAGE_WEIGHT * scores[k]!) / best;
	});
}

function idfFromDf(df: Map<string, number>, n: number): Map<string, number> {
	const idf = new Map<string, number>();
	for (const [t, c] of df) idf.set(t, Math.log((1 + n) / (1 + c)) + 1);
	return idf;
}

/**
 * Per sentence, how much of what the prompt leaves out it carries (about 1 for a sentence that
 * names an excluded topic word or carries an excluded mood); null when nothing is left out.
 */
export function exclusionScorer(prompt: ReadPrompt): ((u: Unit) => number) | null {
	const { terms, moods } = prompt.excluded;
	if (terms.length === 0 && moods.length === 0) return null;
	const stems = new Set(terms.map((t) => t.stem));
	const mood = moodScorer(moods);
	return (u) => u.keys.reduce((n, t) => n + (stems.has(t) ? 1 : 0), 0) + mood(u) / 2;
}

/** Per-sentence evidence of a mood, in BM25-like units (one strong cue ≈ one matched rare word). */
export function moodScorer(moods: Mood[]): (u: Unit) => number {
	if (moods.length === 0) return () => 0;
	return (u) => {
		let score = 0;
		const text = ` ${u.text.toLowerCase()} `;
		for (const mood of moods) {
			if (mood === "funny")
				score +=
					(u.laughter ? 2 : 0) +
					(/\b(funny|hilarious|joke|kidding|ridiculous)\b/.test(text) ? 1.5 : 0) +
					(u.valence > 2 ? 0.5 : 0);
			if (mood === "emotional") score += Math.min(2, Math.abs(u.valence) / 2);
			if (mood === "heated")
				score +=
					(u.valence < -1 ? 1 : 0) +
					(/\b(no|disagree|but|wrong|never|can't|won't)\b/.test(text) ? 0.7 : 0) +
					(u.question ? 0.3 : 0);
			if (mood === "story") score += Math.min(2, u.pastVerbs * 0.4 + u.temporal * 0.5 + u.reported * 0.6);
			if (mood === "advice")
				score +=
					(u.secondPerson > 0 ? 0.7 : 0) +
					(/\b(should|need to|have to|try|make sure|don't|always|never)\b/.test(text) ? 0.8 : 0);
			if (mood === "surprising")
				score += /\b(actually|turns out|surpris|realized|no way|wow|believe)\b/.test(text) ? 1.2 : 0;
			if (mood === "decided")
				score +=
					(/\b(agree[ds]?|agreed|decided?|decision|let's go with|we'll go with|settled|conclusion|final|so we'll|we will|okay so we)\b/.test(
						text,
					)
						? 1.2
						: 0) + Math.min(0.6, u.reasoning * 0.3);
		}
		return score;
	};
}

/** The rarest words said most across the sentences that match the prompt best (not the prompt's own words). */
function feedbackTerms(
	units: Unit[],
	score: (u: Unit) => number,
	idf: (t: string) => number,
	prompt: Map<string, number>,
): [string, number][] {
	const best = units
		.map((u) => ({ u, s: score(u) }))
		.filter((x) => x.s > 0)
		.sort((a, b) => b.s - a.s)
		.slice(0, FEEDBACK_SENTENCES);
	if (best.length < 2) return [];
	const counts = new Map<string, number>();
	for (const { u } of best)
		for (const t of new Set(u.keys)) if (!prompt.has(t)) counts.set(t, (counts.get(t) ?? 0) + 1);
	return [...counts]
		.filter(([, c]) => c >= 2)
		.map(([t, c]) => [t, c * idf(t)] as const)
		.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
		.slice(0, FEEDBACK_TERMS)
		.map(([t]) => [t, FEEDBACK_WEIGHT]);
}

/**
 * The sentences that say a hyphenated prompt word apart ("the back end" for "back-end") also carry
 * its key, so the prompt finds them; a sentence that writes it whole already does (matchStem).
 * Units without one are returned as they are.
 */
export function withCompoundsSaidApart(units: Unit[], compounds: ReadPrompt["compounds"]): Unit[] {
	if (compounds.length === 0) return units;
	return units.map((u) => {
		const found: string[] = [];
		for (const { key, parts } of compounds) {
			for (let k = 0; k + parts.length <= u.tagged.length; k++)
				if (parts.every((part, n) => u.tagged[k + n]!.norm === part)) found.push(key);
		}
		return found.length > 0 ? { ...u, keys: [...u.keys, ...found] } : u;
	});
}
