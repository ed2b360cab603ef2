/**
 * Choosing moments without a prompt. A passage's gain is what its sentences are worth over
 * ordinary talk (Σ duration × (worth − τ + lift), worth being the moment reading and, where that
 * is no moment, the substance of the discussion around it: above τ a sentence adds, below it
 * costs, so a clip grows only while the moment lasts, never toward the maximum), plus how clean its
 * edges are (a start and an end where the talk changes), plus whether its opening sets up what
 * follows (the words of its first seconds come back later in it), less a weight when it holds a
 * turn from one topic to the next. Every candidate passage is scored once, in
 * O(1) each from running sums, keeping a few per first sentence; the best non-overlapping ones win.
 */
import type { MomentReading } from "./moments.ts";
import { overlaps, type Span } from "./passages.ts";
import type { TalkAnalysis } from "./talk-analysis.ts";
import { passageStarts } from "../../text/cohesion.ts";
import { chatterOf } from "../../text/units.ts";

/** A sentence is worth its duration × (worth − τ): above τ it adds to a passage, below it costs. */
export const MOMENT_BAR = 0.5;
/** Where the best fifth of a video's talk starts (by worth, duration-weighted): the bar in talk without moments. */
const BEST_SHARE_FROM = 0.8;
/**
 * Weights of clean edges (a start and an end where talk changes) against the sentences' worth.
 * The start weighs more: when a moment does not fit the range, a clip may lose its coda but never
 * its setup (the demo's bakery story, 30.5 s in a 30 s range, opens on "ten years ago").
 */
export const START_EDGE_WEIGHT = 10;
export const END_EDGE_WEIGHT = 8;
/** How much an opening that sets up the rest of the passage counts, and how long the opening is. */
export const OPENING_WEIGHT = 6;
const OPENING_SECONDS = 8;
/**
 * What a passage loses for holding a topic break inside it (a valley of lexical cohesion deeper than
 * the talk's mean by TOPIC_BREAK_DEPTH standard deviations, `passageStarts`): a clip is about one
 * thing, and one crossing into the next topic ends where the first did. Structure, not words: it
 * reads the talk's own vocabulary, in any register.
 */
export const TOPIC_CROSSING_WEIGHT = 4;
const TOPIC_BREAK_DEPTH = 1;
/** Passages kept per first sentence (different ends), so a clip can still fit between two chosen ones. */
const KEPT_PER_START = 3;

interface Candidate {
	span: Span;
	gain: number;
}

/** Running sums of each sentence's worth: duration × (worth − τ + lift from vocal energy, the asked-for mood, what is left out). */
export function gainPrefix(talk: TalkAnalysis): Float64Array {
	const prefix = new Float64Array(talk.units.length + 1);
	const bar = barOf(talk);
	talk.units.forEach(
		(u, k) => (prefix[k + 1] = prefix[k]! + (u.end - u.start) * (talk.reading.worth[k]! - bar + talk.lift[k]!)),
	);
	return prefix;
}

/**
 * The bar a sentence must clear to add to a passage: MOMENT_BAR, or in talk without moments (a
 * meeting, most of whose sentences read far below it) the worth its best fifth reaches, so that
 * passages there grow by what they carry and not only by their edges.
 */
export function barOf(talk: TalkAnalysis): number {
	const { units, reading, lift } = talk;
	const order = units.map((_, k) => k).sort((a, b) => reading.worth[a]! + lift[a]! - (reading.worth[b]! + lift[b]!));
	const seconds = (k: number) => units[k]!.end - units[k]!.start;
	const total = units.reduce((sum, _, k) => sum + seconds(k), 0);
	let below = 0;
	for (const k of order) {
		below += seconds(k);
		if (below >= BEST_SHARE_FROM * total) return Math.min(MOMENT_BAR, reading.worth[k]! + lift[k]!);
	}
	return MOMENT_BAR;
}

export function edgeGain(reading: MomentReading, i: number, j: number): number {
	return (
		START_EDGE_WEIGHT * Math.tanh(reading.startLogit[i]! / 4) +
		END_EDGE_WEIGHT * Math.tanh(reading.endLogit[j]! / 4)
	);
}

/**
 * Calls `fn` with the gain of every candidate passage. The opening's cohesion is kept up as the
 * passage grows (each later sentence's words checked once against the opening's), so the whole
 * walk costs O(passages + words).
 */
export function visitGains(
	talk: TalkAnalysis,
	prefix: Float64Array,
	fn: (i: number, j: number, gain: number) => void,
): void {
	const { units, reading, spans, bounds } = talk;
	const { idf } = reading;
	const breaksThrough = topicBreaksThrough(talk);
	for (let i = 0; i < units.length; i++) {
		if (!spans.canStart[i]) continue;
		const opening = new Map<string, number>();
		let k = i;
		do for (const t of units[k]!.terms) opening.set(t, idf.get(t) ?? 1);
		while (++k < units.length && units[k]!.start - units[i]!.start < OPENING_SECONDS);
		const restStart = k;
		let total = 0;
		for (const w of opening.values()) total += w;
		const seen = new Set<string>();
		let shared = 0;
		for (let j = i; j < units.length; j++) {
			if (units[j]!.end - units[i]!.start > bounds.max) break;
			if (j >= restStart) {
				for (const t of units[j]!.terms) {
					if (opening.has(t) && !seen.has(t)) {
						seen.add(t);
						shared += opening.get(t)!;
					}
				}
			}
			if (Number.isNaN(spans.endOf(i, j))) continue;
			const cohesion = total > 0 && j >= restStart ? shared / total : 0;
			const crosses = breaksThrough[j + 1]! > breaksThrough[i + 1]! ? TOPIC_CROSSING_WEIGHT : 0;
			fn(
				i,
				j,
				prefix[j + 1]! - prefix[i]! + edgeGain(reading, i, j) + OPENING_WEIGHT * (cohesion - 0.3) - crosses,
			);
		}
	}
}

/** How many topic breaks open a sentence before each unit: a passage from i to j holds one when the count grows from i + 1 to j + 1. */
function topicBreaksThrough(talk: TalkAnalysis): Int32Array {
	const { units, reading } = talk;
	const starts = new Set(passageStarts(units, reading.continuity, TOPIC_BREAK_DEPTH));
	const through = new Int32Array(units.length + 1);
	units.forEach((_, k) => (through[k + 1] = through[k]! + (k > 0 && starts.has(k) ? 1 : 0)));
	return through;
}

/** The best non-overlapping passages, best gain first: at most `most`, and past those worth cutting, at least `least`. */
export function chooseMoments(talk: TalkAnalysis, most: number, least: number): Span[] {
	const prefix = gainPrefix(talk);
	const candidates: Candidate[] = [];
	let current: Candidate[] = [];
	let currentStart = -1;
	const flush = () => {
		candidates.push(...current);
		current = [];
	};
	visitGains(talk, prefix, (i, j, gain) => {
		if (i !== currentStart) {
			flush();
			currentStart = i;
		}
		if (current.length < KEPT_PER_START) current.push({ span: talk.spans.span(i, j), gain });
		else {
			let worst = 0;
			for (let n = 1; n < current.length; n++) if (current[n]!.gain < current[worst]!.gain) worst = n;
			if (gain > current[worst]!.gain) current[worst] = { span: talk.spans.span(i, j), gain };
		}
	});
	flush();
	// "not the pumpkin contest": no clip holds it or the talk right around it.
	const excludedBefore = new Int32Array(talk.units.length + 1);
	talk.units.forEach(
		(_, k) => (excludedBefore[k + 1] = excludedBefore[k]! + ((talk.excluded?.[k] ?? 0) >= 0.5 ? 1 : 0)),
	);
	const holdsExcluded = (span: Span) => excludedBefore[span.j + 1]! - excludedBefore[span.i]! > 0;
	const chatterIn = chatterShare(talk);
	const chatterAtEdge = (span: Span) =>
		chatterOf(talk.units[span.i]!) >= EDGE_CHATTER || chatterOf(talk.units[span.j]!) >= EDGE_CHATTER;
	const mostlyChatter = (span: Span) => chatterIn(span) >= 0.5;
	candidates.sort((a, b) => b.gain - a.gain || a.span.start - b.span.start);
	const picked: Span[] = [];
	for (const { span, gain } of candidates) {
		if (picked.length >= most) break;
		// Past the moments worth cutting, keep filling only up to the minimum count.
		if (gain <= 0 && picked.length >= least) break;
		// Greetings and sign-offs alone are no clip, however well their edges read, and no clip opens or closes on one.
		if (holdsExcluded(span) || chatterIn(span) >= ALL_CHATTER || chatterAtEdge(span)) continue;
		// Filling up to the minimum count never takes a stretch of chatter (a meeting's digits, its closing business).
		if (gain <= 0 && mostlyChatter(span)) continue;
		if (!picked.some((p) => overlaps(p, span) || splitsAMoment(talk.reading, p, span))) picked.push(span);
	}
	// Talk that is mostly chatter still gives its best passage that is not chatter through and through.
	const best =
		picked.length === 0 ? candidates.find(({ span }) => !holdsExcluded(span) && chatterIn(span) < 0.99) : null;
	return best ? [best.span] : picked;
}

/** A passage with at least this share of chatter is chatter through and through. */
const ALL_CHATTER = 0.99;
/** A sentence at least this much chatter is no clip's first or last. */
const EDGE_CHATTER = 0.5;

/** The share of a passage's seconds that are chatter, greetings or logistics. */
function chatterShare(talk: TalkAnalysis): (span: Span) => number {
	const seconds = new Float64Array(talk.units.length + 1);
	const chatter = new Float64Array(talk.units.length + 1);
	talk.units.forEach((u, k) => {
		seconds[k + 1] = seconds[k]! + (u.end - u.start);
		chatter[k + 1] = chatter[k]! + chatterOf(u) * (u.end - u.start);
	});
	return (span) =>
		(chatter[span.j + 1]! - chatter[span.i]!) / Math.max(1e-9, seconds[span.j + 1]! - seconds[span.i]!);
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
