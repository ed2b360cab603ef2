/**
 * A chosen passage as the clip the API returns: cut points, a 0-100 score, the breakdown behind
 * it, and the words that describe it (describe.ts).
 */
import type { RankedClip, ScoreBreakdown } from "../ranked-clip";
import { describeClip } from "./describe";
import { sigmoid } from "./logistic";
import type { MomentReading } from "./moments";
import type { Span } from "./passages";
import type { TalkAnalysis } from "./talk-analysis";

export interface PromptMatch {
	/** 0..1: how well the clip matches the prompt. */
	value: number;
	/** Prompt words said in or around the clip. */
	matched: string[];
}

/**
 * How likely a viewer watches the passage to the end (0..1): its sentences' moment probability,
 * lifted by vocal energy and an asked-for mood as in ranking, and its edges.
 */
export function viralityOf(talk: TalkAnalysis, span: Span): number {
	const { reading } = talk;
	let quality = 0;
	let weight = 0;
	for (let k = span.i; k <= span.j; k++) {
		const d = reading.units[k]!.end - reading.units[k]!.start;
		quality += Math.max(0, Math.min(1, reading.moment[k]! + talk.lift[k]!)) * d;
		weight += d;
	}
	const edges = (sigmoid(reading.startLogit[span.i]!) + sigmoid(reading.endLogit[span.j]!)) / 2;
	return 0.8 * (weight ? quality / weight : 0) + 0.2 * edges;
}

export function clipFromSpan(talk: TalkAnalysis, span: Span, match: PromptMatch | null): RankedClip {
	const { reading } = talk;
	const units = reading.units.slice(span.i, span.j + 1);
	const breakdown = breakdownOf(reading, span, talk.energy, match?.value ?? null);
	const score = match ? match.value : viralityOf(talk, span);
	return {
		start: span.start,
		end: span.end,
		score: percent(score),
		transcript: units.map((u) => u.text).join(" "),
		scoreBreakdown: breakdown,
		...describeClip(units, breakdown, reading.idf, { matched: match?.matched ?? [], text: talk.promptText }),
	};
}

export function breakdownOf(reading: MomentReading, span: Span, energy: TalkAnalysis["energy"], relevance: number | null): ScoreBreakdown {
	const units = reading.units.slice(span.i, span.j + 1);
	const vectors = reading.vectors.slice(span.i, span.j + 1);
	const seconds = Math.max(1e-6, units.reduce((s, u) => s + u.end - u.start, 0));
	const mean = (pick: (v: (typeof vectors)[number]) => number) => vectors.reduce((s, v, k) => s + pick(v) * (units[k]!.end - units[k]!.start), 0) / seconds;
	let low = 0;
	let high = 0;
	let running = 0;
	for (const u of units) {
		running += u.valence;
		low = Math.min(low, running);
		high = Math.max(high, running);
	}
	return {
		hook: percent(sigmoid(reading.startLogit[span.i]!)),
		story: percent(1.4 * mean((v) => 0.5 * v.pastTense + v.timeMarkers + v.reportedSpeech + 0.5 * v.thirdPerson)),
		payoff: percent(0.7 * sigmoid(reading.endLogit[span.j]!) + (units.slice(-3).some((u) => u.payoff || u.laughter) ? 0.3 : 0)),
		feeling: percent(1.2 * mean((v) => v.feeling) + 0.4 * Math.min(1, (high - low) / 8)),
		detail: percent(mean((v) => v.properNouns + v.numbers + 0.5 * v.specificity)),
		flow: percent(1 - mean((v) => 0.5 * v.disfluency + v.backchannel)),
		relevance: relevance === null ? null : percent(relevance),
		energy: energy ? percent(energy(span.start, span.end)) : null,
	};
}

export const percent = (v: number) => Math.round(100 * Math.max(0, Math.min(1, v)));
