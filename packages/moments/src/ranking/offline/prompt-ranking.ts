/**
 * Choosing clips for a custom prompt: peaks of relevance, best first; each gives the passage around
 * it that is most about the prompt and near the answer length. Passages far below the best one, or
 * saying too little of the prompt near them, are left out: fewer clips rather than unrelated ones.
 * Everything is running sums and passages around one peak at a time, so a 3-hour transcript with a
 * 600 s maximum costs what an hour-long one does per peak.
 */
import type { PromptMatch } from "./clip-details.ts";
import type { Span } from "./passages.ts";
import type { PromptTerm } from "./prompt.ts";
import type { Relevance } from "./relevance.ts";
import type { TalkAnalysis } from "./talk-analysis.ts";

const MAX_CLIPS = 9;
/** A prompt clip's preferred length: long enough to hold an answer, short enough to stay on it. */
const ANSWER_SECONDS = 30;
/** Seconds around a chosen answer where no other clip is taken: the next clip answers from elsewhere. */
const SUPPRESS_SECONDS = 60;
/** Share of the prompt's topic weight a clip must say near it, relative to the best clip. */
const CLIP_COVERAGE = 0.34;

export function rankForPrompt(talk: TalkAnalysis, relevance: Relevance): { span: Span; match: PromptMatch }[] {
	if (!talk.prompt) return [];
	const measures = passageMeasures(talk, relevance);
	const chosen = choosePassages(talk, relevance, measures);
	if (chosen.length === 0) return [];
	return keepAndScore(chosen, talk, relevance, measures);
}

/** Running sums over seconds and sentences, so any passage is measured in constant time. */
interface PassageMeasures {
	/** Mean relevance density over the whole seconds inside the span. */
	meanRelevance(span: Span): number;
	/** Raw relevance of the span's sentences, summed. */
	rawOf(span: Span): number;
	/** Mean moment reading of the span's sentences, weighted by their length. */
	momentMean(span: Span): number;
	/** Whether sentences i..j hold any the prompt leaves out. */
	holdsExcluded(i: number, j: number): boolean;
	/** The largest raw relevance of any passage (at least 1e-9). */
	rawBest: number;
}

function passageMeasures(talk: TalkAnalysis, relevance: Relevance): PassageMeasures {
	const { units, reading, spans } = talk;
	const density = relevance.perSecond;
	const seconds = density.length;
	const densityPrefix = new Float64Array(seconds + 1);
	for (let t = 0; t < seconds; t++) densityPrefix[t + 1] = densityPrefix[t]! + density[t]!;
	const origin = relevance.origin;
	const meanRelevance = (span: Span) => {
		const a = Math.max(0, Math.min(seconds, Math.ceil(span.start - origin)));
		const b = Math.max(a, Math.min(seconds, Math.floor(span.end - origin) + 1));
		return b > a ? (densityPrefix[b]! - densityPrefix[a]!) / (b - a) : 0;
	};
	// Raw relevance of each sentence, summed: a clip should hold the sentences that match, not only sit near them.
	const rawPrefix = new Float64Array(units.length + 1);
	const momentPrefix = new Float64Array(units.length + 1);
	const timePrefix = new Float64Array(units.length + 1);
	units.forEach((u, k) => {
		rawPrefix[k + 1] = rawPrefix[k]! + relevance.perUnit[k]!;
		momentPrefix[k + 1] = momentPrefix[k]! + reading.moment[k]! * (u.end - u.start);
		timePrefix[k + 1] = timePrefix[k]! + (u.end - u.start);
	});
	const rawOf = (span: Span) => rawPrefix[span.j + 1]! - rawPrefix[span.i]!;
	const momentMean = (span: Span) => {
		const time = timePrefix[span.j + 1]! - timePrefix[span.i]!;
		return time > 0 ? (momentPrefix[span.j + 1]! - momentPrefix[span.i]!) / time : 0;
	};
	// "…, not the budget": no clip holds what the prompt leaves out or the talk right around it.
	const excludedBefore = new Int32Array(units.length + 1);
	units.forEach((_, k) => (excludedBefore[k + 1] = excludedBefore[k]! + ((talk.excluded?.[k] ?? 0) >= 0.5 ? 1 : 0)));
	let rawBest = 1e-9;
	spans.visit((i, j) => (rawBest = Math.max(rawBest, rawPrefix[j + 1]! - rawPrefix[i]!)));
	const holdsExcluded = (i: number, j: number) => excludedBefore[j + 1]! - excludedBefore[i]! > 0;
	return { meanRelevance, rawOf, momentMean, holdsExcluded, rawBest };
}

type Chosen = { span: Span; value: number };

/**
 * Peaks of relevance, highest first: each gives the passage holding it that scores best, and
 * silences SUPPRESS_SECONDS around what it gave (or around the peak, when no passage fits).
 */
function choosePassages(talk: TalkAnalysis, relevance: Relevance, measures: PassageMeasures): Chosen[] {
	const origin = relevance.origin;
	const suppressed = Float64Array.from(relevance.perSecond);
	const chosen: Chosen[] = [];
	for (let round = 0; round < MAX_CLIPS * 2 && chosen.length < MAX_CLIPS; round++) {
		let best = 0;
		for (let t = 1; t < suppressed.length; t++) if (suppressed[t]! > suppressed[best]!) best = t;
		if (suppressed[best]! <= 0) break;
		const peak = best + origin;
		const around = bestPassageAt(peak, talk, relevance, measures, chosen);
		const from = Math.max(0, Math.floor((around ? around.span.start : peak) - origin - SUPPRESS_SECONDS));
		const to = Math.min(
			suppressed.length,
			Math.ceil((around ? around.span.end : peak) - origin + SUPPRESS_SECONDS),
		);
		suppressed.fill(0, from, to);
		if (around) chosen.push({ span: around.span, value: measures.meanRelevance(around.span) });
	}
	return chosen;
}

/**
 * The passage holding `peak` that scores best (relevance, matched sentences, closeness to the
 * answer length, moment), outside those already chosen and holding nothing left out; or null.
 */
function bestPassageAt(
	peak: number,
	talk: TalkAnalysis,
	relevance: Relevance,
	measures: PassageMeasures,
	chosen: Chosen[],
): Chosen | null {
	const { units, bounds, spans } = talk;
	const { meanRelevance, rawOf, rawBest, momentMean } = measures;
	const target = Math.max(bounds.min, Math.min(bounds.max, ANSWER_SECONDS));
	let pick: Chosen | null = null;
	// Only passages holding the peak: first sentences from max seconds before it up to it.
	spans.visitStartingAt(
		firstUnitFrom(units, peak - bounds.max - 1),
		lastUnitBefore(units, peak),
		(i, j, start, end) => {
			if (start > peak || end < peak || measures.holdsExcluded(i, j)) return;
			const span = { i, j, start, end };
			if (chosen.some((c) => overlaps(c.span, span))) return;
			const opensOnIt = relevance.perUnit[i]! > 0 ? 0.1 : 0;
			const value =
				meanRelevance(span) +
				rawOf(span) / rawBest -
				(0.3 * Math.abs(end - start - target)) / target +
				0.1 * momentMean(span) +
				opensOnIt;
			if (!pick || value > pick.value) pick = { span, value };
		},
	);
	return pick as Chosen | null;
}

/**
 * Drops passages far below the best one or saying too little of the prompt near them, orders the
 * rest best first, and scores each match by the prompt's weight it covers and its relevance.
 */
function keepAndScore(
	chosen: Chosen[],
	talk: TalkAnalysis,
	relevance: Relevance,
	measures: PassageMeasures,
): { span: Span; match: PromptMatch }[] {
	const { units } = talk;
	const prompt = talk.prompt!;
	const { rawOf, momentMean } = measures;
	const top = chosen.reduce((m, c) => Math.max(m, c.value), 0);
	const rawTop = chosen.reduce((m, c) => Math.max(m, rawOf(c.span)), 1e-9);
	const matchedNear = (span: Span) => {
		const near = new Set<string>();
		for (let k = firstUnitFrom(units, span.start - 15); k < units.length && units[k]!.start <= span.end + 15; k++)
			for (const t of units[k]!.keys) near.add(t);
		return prompt.terms.filter((t) => near.has(t.stem));
	};
	const topicWeight = prompt.terms.reduce((s, t) => s + (t.context ? 0 : t.weight * relevance.idf(t.stem)), 0);
	const coveredNear = (span: Span) =>
		topicWeight > 0
			? matchedNear(span).reduce((s, t) => s + (t.context ? 0 : t.weight * relevance.idf(t.stem)), 0) /
				topicWeight
			: 0;
	const bestCovered = chosen.reduce((m, c) => Math.max(m, coveredNear(c.span)), 0);
	return (
		chosen
			// Matched on mood alone ("funny", "stories"), a clip must come closer to the best one.
			.filter((c) => {
				if (c.value < 0.35 * top) return false;
				if (topicWeight === 0) return prompt.moods.length > 0 && rawOf(c.span) >= 0.5 * rawTop;
				return (
					coveredNear(c.span) >= CLIP_COVERAGE * bestCovered &&
					coveredNear(c.span) > 0 &&
					rawOf(c.span) >= 0.25 * rawTop
				);
			})
			.sort((a, b) => b.value - a.value + 0.05 * (momentMean(b.span) - momentMean(a.span)))
			.map(({ span, value }) => ({ span, match: matchOf(matchedNear(span), value / top, relevance) }))
	);
}

/** How well a kept passage answers: the prompt's weight it covers, and its relevance beside the best one's. */
function matchOf(matched: PromptTerm[], relative: number, relevance: Relevance) {
	const coverage =
		relevance.fullWeight > 0
			? matched.reduce((s, t) => s + t.weight * relevance.idf(t.stem), 0) / relevance.fullWeight
			: 1;
	return {
		value: Math.min(1, 0.55 * Math.min(1, coverage) + 0.45 * relative),
		matched: matched.filter((t) => !t.context).map((t) => t.word),
	};
}

const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) =>
	a.start < b.end && b.start < a.end;

/** Index of the first unit starting at or after t (binary search). */
export function firstUnitFrom(units: { start: number }[], t: number): number {
	let lo = 0;
	let hi = units.length;
	while (lo < hi) {
		const mid = (lo + hi) >> 1;
		if (units[mid]!.start < t) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

/** Index of the last unit starting at or before t (−1 when none). */
function lastUnitBefore(units: { start: number }[], t: number): number {
	return firstUnitFrom(units, t + 1e-9) - 1;
}
