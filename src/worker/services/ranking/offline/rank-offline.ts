/**
 * The offline ranker: pure TypeScript, no network, deterministic; the engine for dev, tests and
 * any setup without an LLM, and the fallback when the LLM fails.
 *
 * It reads the talk sentence by sentence (moments.ts: how likely each sentence belongs to a moment
 * an editor would cut, and where moments start and end), then scores every passage of whole
 * sentences inside the duration range by what it gains over ordinary talk plus how clean its edges
 * are. With a custom prompt, relevance to the prompt leads (relevance.ts) and the moment model only
 * breaks ties and bounds the clips. Clips never leave [min, max]; a source whose speech is shorter
 * than the minimum gives one clip of its speech.
 */
import type { Transcript } from "../../transcription/transcript";
import type { RankedClip } from "../ranked-clip";
import { clipFromSpan, type PromptMatch } from "./clip-details";
import type { MomentReading } from "./moments";
import { LEAD, overlaps, padded, splitIntoParts, TAIL, type Span } from "./passages";
import { relevanceOf, type Relevance } from "./relevance";
import type { AudioSignals } from "./signals";
import { analyseTalk, type RankConfig, type TalkAnalysis } from "./talk-analysis";

export type { RankConfig, TalkAnalysis };

export interface OfflineRanking {
	clips: RankedClip[];
	/** Why there are fewer clips than usual (a prompt nothing matches), for the video record. */
	note: string | null;
}

export const MAX_CLIPS = 9;
export const MIN_CLIPS = 4;
/** A sentence is worth its duration × (p − τ): above τ it adds to a passage, below it costs. */
const MOMENT_BAR = 0.5;
/** Weight of clean edges (a start and an end where talk changes) against the sentences' worth. */
const EDGE_WEIGHT = 8;
/** How much an opening that sets up the rest of the passage counts, and how long the opening is. */
const OPENING_WEIGHT = 6;
const OPENING_SECONDS = 8;
/** A prompt clip's preferred length: long enough to hold an answer, short enough to stay on it. */
const ANSWER_SECONDS = 30;

export function rankOffline(transcript: Transcript, config: RankConfig, signals: AudioSignals | null = null): OfflineRanking {
	const talk = analyseTalk(transcript, config, signals);
	if (!talk) return { clips: [], note: null };
	const { units, reading, bounds, frame, prompt } = talk;
	const clip = (span: Span, match: PromptMatch | null = null) => clipFromSpan(talk, span, match);

	if (units[units.length - 1]!.end - units[0]!.start + LEAD + TAIL < bounds.min) {
		// Speech shorter than the minimum: one clip of all of it is still useful.
		return { clips: [clip(padded(units, 0, units.length - 1, frame))], note: null };
	}
	if (config.clipType === "split-clips") {
		const parts = splitIntoParts(units, bounds, frame).map((span) => clip(span));
		return { clips: parts.map((part, n) => ({ ...part, title: `Part ${n + 1}: ${part.title}` })), note: null };
	}
	if (prompt && (prompt.terms.length > 0 || prompt.onlyMood)) {
		const relevance = relevanceOf(units, prompt, frame.start, frame.end);
		if (relevance.found.size === 0 && prompt.moods.length === 0) {
			const words = prompt.terms.filter((t) => !t.context).map((t) => t.word);
			return { clips: [], note: `Nothing in the video matches the prompt: none of "${words.join('", "')}" is said.` };
		}
		const matches = rankForPrompt(talk, relevance);
		const clips = matches.map(({ span, match }) => clip(span, match));
		return { clips, note: clips.length === 0 ? "No passage of the allowed length matches the prompt closely enough." : null };
	}
	return { clips: rankForVirality(reading, talk.spans, gainPrefix(talk)).map((span) => clip(span)), note: null };
}

/**
 * Gain of a passage: Σ duration × (p − τ) over its sentences, plus how clean its edges are, plus
 * whether its opening sets up what follows (the words of its first seconds come back later in it).
 */
export function momentGain(reading: MomentReading, prefix: Float64Array, span: Span): number {
	const edges = EDGE_WEIGHT * (Math.tanh(reading.startLogit[span.i]! / 4) + Math.tanh(reading.endLogit[span.j]! / 4));
	return prefix[span.j + 1]! - prefix[span.i]! + edges + OPENING_WEIGHT * (openingCohesion(reading, span) - 0.3);
}

/** Share (IDF-weighted) of the content words of a passage's first ~8 seconds that recur in the rest of it. */
export function openingCohesion(reading: MomentReading, span: Span): number {
	const { units, idf } = reading;
	let k = span.i;
	const opening = new Set<string>();
	do for (const t of units[k]!.terms) opening.add(t);
	while (++k <= span.j && units[k]!.start - units[span.i]!.start < OPENING_SECONDS);
	if (opening.size === 0 || k > span.j) return 0;
	const rest = new Set<string>();
	for (; k <= span.j; k++) for (const t of units[k]!.terms) rest.add(t);
	let shared = 0;
	let total = 0;
	for (const t of opening) {
		const w = idf.get(t) ?? 1;
		total += w;
		if (rest.has(t)) shared += w;
	}
	return shared / total;
}

/** Running sums of each sentence's worth: duration × (p − τ + lift from vocal energy and the asked-for mood). */
export function gainPrefix(talk: TalkAnalysis): Float64Array {
	const prefix = new Float64Array(talk.units.length + 1);
	talk.units.forEach((u, k) => (prefix[k + 1] = prefix[k]! + (u.end - u.start) * (talk.reading.moment[k]! - MOMENT_BAR + talk.lift[k]!)));
	return prefix;
}

function rankForVirality(reading: MomentReading, spans: Span[], prefix: Float64Array): Span[] {
	const scored = spans.map((span) => ({ span, gain: momentGain(reading, prefix, span) })).sort((a, b) => b.gain - a.gain || a.span.start - b.span.start);
	const picked: Span[] = [];
	for (const { span, gain } of scored) {
		if (picked.length >= MAX_CLIPS) break;
		// Past the moments worth cutting, keep filling only up to the minimum count.
		if (gain <= 0 && picked.length >= MIN_CLIPS) break;
		if (!picked.some((p) => overlaps(p, span) || splitsAMoment(reading, p, span))) picked.push(span);
	}
	return picked;
}

/**
 * Two clips that touch (less than 3 s apart) must meet at a real edge, where one moment ends and
 * another starts; otherwise the second would be the leftover of the first (a story's opening line
 * glued to the talk before it).
 */
function splitsAMoment(reading: MomentReading, a: Span, b: Span): boolean {
	const [first, second] = a.start <= b.start ? [a, b] : [b, a];
	if (second.start - first.end >= 3) return false;
	return reading.endLogit[first.j]! <= 0 || reading.startLogit[second.i]! <= 0;
}

/**
 * Peaks of relevance, best first; each gives the passage around it that is most about the prompt
 * and near the answer length. Passages far below the best one, or with none of the prompt's words
 * near them, are left out: fewer clips rather than unrelated ones.
 */
function rankForPrompt(talk: TalkAnalysis, relevance: Relevance): { span: Span; match: PromptMatch }[] {
	const { units, reading, bounds, prompt } = talk;
	const density = relevance.perSecond;
	const at = (t: number) => density[Math.max(0, Math.min(density.length - 1, Math.round(t - relevance.origin)))]!;
	const target = Math.max(bounds.min, Math.min(bounds.max, ANSWER_SECONDS));
	const meanRelevance = (span: Span) => {
		let sum = 0;
		let n = 0;
		for (let t = Math.ceil(span.start); t <= span.end; t++, n++) sum += at(t);
		return n ? sum / n : 0;
	};
	// Raw relevance of each sentence, summed: a clip should hold the sentences that match, not only sit near them.
	const rawPrefix = new Float64Array(units.length + 1);
	units.forEach((_, k) => (rawPrefix[k + 1] = rawPrefix[k]! + relevance.perUnit[k]!));
	const rawOf = (span: Span) => rawPrefix[span.j + 1]! - rawPrefix[span.i]!;
	const rawBest = Math.max(1e-9, ...talk.spans.map(rawOf));
	const momentMean = (span: Span) => {
		let sum = 0;
		let weight = 0;
		for (let k = span.i; k <= span.j; k++) {
			const d = units[k]!.end - units[k]!.start;
			sum += reading.moment[k]! * d;
			weight += d;
		}
		return weight ? sum / weight : 0;
	};
	const suppressed = Float64Array.from(density);
	const chosen: { span: Span; value: number }[] = [];
	for (let round = 0; round < MAX_CLIPS * 2 && chosen.length < MAX_CLIPS; round++) {
		let best = 0;
		for (let t = 1; t < suppressed.length; t++) if (suppressed[t]! > suppressed[best]!) best = t;
		if (suppressed[best]! <= 0) break;
		const peak = best + relevance.origin;
		let pick: { span: Span; value: number } | null = null;
		for (const span of talk.spans) {
			if (span.start > peak || span.end < peak || chosen.some((c) => overlaps(c.span, span))) continue;
			const opensOnIt = relevance.perUnit[span.i]! > 0 ? 0.1 : 0;
			const value = meanRelevance(span) + rawOf(span) / rawBest - (0.3 * Math.abs(span.end - span.start - target)) / target + 0.1 * momentMean(span) + opensOnIt;
			if (!pick || value > pick.value) pick = { span, value };
		}
		// Nothing else is taken within a minute of this answer: the next clip answers from elsewhere.
		const from = Math.max(0, Math.floor((pick ? pick.span.start : peak) - relevance.origin - 60));
		const to = Math.min(suppressed.length, Math.ceil((pick ? pick.span.end : peak) - relevance.origin + 60));
		suppressed.fill(0, from, to);
		if (pick) chosen.push({ span: pick.span, value: meanRelevance(pick.span) });
	}
	if (chosen.length === 0 || !prompt) return [];
	const top = Math.max(...chosen.map((c) => c.value));
	const rawTop = Math.max(1e-9, ...chosen.map((c) => rawOf(c.span)));
	const matchedNear = (span: Span) => {
		const near = new Set(units.filter((u) => u.end >= span.start - 15 && u.start <= span.end + 15).flatMap((u) => u.keys));
		return prompt.terms.filter((t) => near.has(t.stem));
	};
	return chosen
		// Matched on mood alone ("funny", "stories"), a clip must come closer to the best one.
		.filter((c) => c.value >= 0.35 * top && (matchedNear(c.span).length > 0 ? rawOf(c.span) >= 0.25 * rawTop : prompt.moods.length > 0 && rawOf(c.span) >= 0.5 * rawTop))
		.sort((a, b) => b.value - a.value + 0.05 * (momentMean(b.span) - momentMean(a.span)))
		.map(({ span, value }) => {
			const matched = matchedNear(span);
			const coverage = relevance.fullWeight > 0 ? matched.reduce((s, t) => s + t.weight * relevance.idf(t.stem), 0) / relevance.fullWeight : 1;
			return { span, match: { value: Math.min(1, 0.55 * Math.min(1, coverage) + 0.45 * (value / top)), matched: matched.filter((t) => !t.context).map((t) => t.word) } };
		});
}
