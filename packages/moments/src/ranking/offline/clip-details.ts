/**
 * A chosen passage as the clip the API returns: cut points, the breakdown, the 0-100 score (the
 * breakdown's weighted mean, @clipforge/domain ranking-features.ts), and the words that describe it
 * (describe/describe-clip.ts).
 */
import { scoreOf } from "@clipforge/domain";
import { joinWords } from "../../text/script.ts";
import { textWithStops } from "../../text/transcript.ts";
import type { RankedClip, ScoreBreakdown } from "../ranked-clip.ts";
import { CONTRAST_WORD, STRONG_CLAIM } from "../../text/lexicon.ts";
import type { Unit } from "../../text/units.ts";
import { describeClip } from "./describe/describe-clip.ts";
import { sigmoid } from "./logistic.ts";
import type { Span } from "./passages.ts";
import type { TalkAnalysis } from "./talk-analysis.ts";
import { MOMENT_BAR } from "./virality.ts";

export interface PromptMatch {
	/** 0..1: how well the clip matches the prompt. */
	value: number;
	/** Prompt words said in or around the clip. */
	matched: string[];
}

/** Other titles a clip could take, best first, for when two clips of a video would share one. */
const titleChoices = new WeakMap<RankedClip, string[]>();

/** How likely a viewer watches the passage to the end (0..1): its score without a prompt. */
export function viralityOf(talk: TalkAnalysis, span: Span): number {
	return scoreOf(breakdownOf(talk, span, null)) / 100;
}

export function clipFromSpan(talk: TalkAnalysis, span: Span, match: PromptMatch | null): RankedClip {
	const { reading } = talk;
	const units = reading.units.slice(span.i, span.j + 1);
	const breakdown = breakdownOf(talk, span, match?.value ?? null);
	const words = describeClip(
		units,
		breakdown,
		reading.idf,
		{ matched: match?.matched ?? [], text: talk.promptText },
		talk.language,
	);
	const clip: RankedClip = {
		start: span.start,
		end: span.end,
		score: scoreOf(breakdown),
		transcript: textWithStops(openedAt(units, span.start)),
		scoreBreakdown: breakdown,
		title: words.title,
		hookTitle: words.hookTitle,
		viralityReason: words.viralityReason,
		hooks: words.hooks,
		emotions: words.emotions,
		description: words.description,
	};
	titleChoices.set(clip, words.titleChoices);
	return clip;
}

/**
 * The sentences as the clip says them: a first sentence whose opening connectives the cut leaves
 * out ("So, last winter…") starts on its first word kept, capitalised as the sentence was.
 */
function openedAt(units: Unit[], start: number): Pick<Unit, "text" | "closed" | "question">[] {
	const [first, ...rest] = units;
	if (!first || first.openingWords === 0 || first.words[0]!.start >= start) return units;
	const kept = first.words.filter((w) => w.start >= start - 0.01);
	if (kept.length === 0 || kept.length === first.words.length) return units;
	let text = joinWords(kept.map((w) => w.word));
	if (/^\p{Lu}/u.test(first.text)) text = text.charAt(0).toUpperCase() + text.slice(1);
	return [{ ...first, text }, ...rest];
}

/** The video's clips with no title twice: a later clip takes its next title, or its time. */
export function distinctTitles(clips: RankedClip[]): RankedClip[] {
	const used = new Set<string>();
	return clips.map((clip) => {
		const key = (t: string) =>
			t
				.toLowerCase()
				.replace(/[^\p{L}\p{N}]+/gu, " ")
				.trim();
		let title = clip.title;
		if (used.has(key(title))) {
			title =
				(titleChoices.get(clip) ?? []).find((t) => !used.has(key(t))) ?? `${title} (at ${clock(clip.start)})`;
		}
		used.add(key(title));
		return title === clip.title ? clip : { ...clip, title };
	});
}

export function breakdownOf(talk: TalkAnalysis, span: Span, relevance: number | null): ScoreBreakdown {
	const { reading, energy } = talk;
	const units = reading.units.slice(span.i, span.j + 1);
	const vectors = reading.vectors.slice(span.i, span.j + 1);
	const seconds = Math.max(
		1e-6,
		units.reduce((s, u) => s + u.end - u.start, 0),
	);
	const mean = (pick: (v: (typeof vectors)[number], k: number) => number) =>
		vectors.reduce((s, v, k) => s + pick(v, k) * (units[k]!.end - units[k]!.start), 0) / seconds;
	let low = 0;
	let high = 0;
	let running = 0;
	for (const u of units) {
		running += u.valence;
		low = Math.min(low, running);
		high = Math.max(high, running);
	}
	return {
		substance: percent(substanceOf(talk, span)),
		hook: percent(sigmoid(reading.startLogit[span.i]!)),
		story: percent(
			1.4 * mean((v) => 0.5 * v.pastTense + v.timeMarkers + v.reportedSpeech + 0.5 * v.thirdPerson) +
				(units[0]!.storyOpener ? 0.2 : 0),
		),
		payoff: percent(
			0.6 *
				Math.max(
					sigmoid(reading.endLogit[span.j]!),
					span.j > span.i ? sigmoid(reading.endLogit[span.j - 1]!) : 0,
				) +
				0.4 * payoffCue(units),
		),
		feeling: percent(1.2 * mean((v) => v.feeling) + 0.4 * Math.min(1, (high - low) / 8)),
		detail: percent(mean((v) => v.properNouns + v.numbers + 0.5 * v.specificity)),
		flow: percent(1 - mean((v) => 0.5 * v.disfluency + v.backchannel)),
		relevance: relevance === null ? null : percent(relevance),
		energy: energy ? percent(energy(span.start, span.end)) : null,
	};
}

/** 1 when the last lines land a story or a point (a payoff phrase, a laugh), 0.5 for a strong or contrasting line, else 0. */
function payoffCue(units: Unit[]): number {
	const last = units.slice(-2);
	if (last.some((u) => u.payoff || u.laughter)) return 1;
	return last.some(
		(u) => !u.question && (STRONG_CLAIM.test(u.text) || CONTRAST_WORD.test(u.text) || Math.abs(u.valence) >= 3),
	)
		? 0.5
		: 0;
}

/**
 * How much content the clip carries, 0..1: its sentences' seconds of moment-like talk over the
 * bar (Σ duration × (p − τ + lift)), a full moment of SUBSTANCE_SECONDS and more being 1. Chatter
 * inside a clip counts against it, so padding a moment with talk around it lowers it.
 */
export function substanceOf(talk: TalkAnalysis, span: Span): number {
	let worth = 0;
	for (let k = span.i; k <= span.j; k++)
		worth += (talk.units[k]!.end - talk.units[k]!.start) * (talk.reading.worth[k]! - SUBSTANCE_BAR + talk.lift[k]!);
	return worth / (SUBSTANCE_SECONDS * (1 - SUBSTANCE_BAR));
}

const SUBSTANCE_SECONDS = 40;
/** Above the selection's bar: middling talk, however long, does not fill a clip's substance. */
const SUBSTANCE_BAR = MOMENT_BAR + 0.1;

export const percent = (v: number) => Math.round(100 * Math.max(0, Math.min(1, v)));

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, "0")}`;
