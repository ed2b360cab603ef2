/**
 * ClipBasic: the deterministic ranker, pure TypeScript, no network.
 *
 * Candidates are windows of whole sentences inside the duration range and the time frame. Each is
 * scored on features a viewer notices (hook of the opening sentence, emotional intensity from
 * AFINN-165, keyword salience against the whole video, speaking pace, completeness, vocal energy
 * from the audio signals when present, and BM25 relevance to the custom prompt), weighted by genre,
 * calibrated to 0-100. The non-overlapping set with the highest total score is kept. Every clip
 * says why: `viralityReason` names the features that drove it and `scoreBreakdown` gives each one.
 */
import { frameOf, type VideoConfig } from "../../domain/video-config";
import { sentencesOf, type Sentence, type Transcript } from "../transcription/transcript";
import { bm25, completeness, contentTerms, emotionalIntensity, energy, hookKinds, hookStrength, paceScore, tokens, topicalContinuity, type AudioSignals } from "./features";
import { GENRE_WEIGHTS, inferGenre, type ConcreteGenre, type Weights } from "./genres";
import { selectNonOverlapping } from "./select";

export { hookStrength } from "./features";

export interface ScoreBreakdown {
	hook: number;
	emotion: number;
	salience: number;
	pace: number;
	completeness: number;
	energy: number | null;
	relevance: number | null;
}

export interface RankedClip {
	start: number;
	end: number;
	score: number;
	title: string;
	/** A short hook line for the clip's first seconds (ClipPro writes one; ClipBasic uses the title). */
	hookTitle: string;
	viralityReason: string;
	transcript: string;
	scoreBreakdown: ScoreBreakdown;
}

export type RankConfig = Pick<VideoConfig, "clipType" | "clipDurationMin" | "clipDurationMax" | "timeframeStart" | "timeframeEnd" | "customPrompt" | "genre">;

export interface RankResult {
	clips: RankedClip[];
	genre: ConcreteGenre;
}

const MAX_CLIPS = 10;
/**
 * The bar for "worth posting", on the raw 0..1 scale. Selection maximises the total of each clip's
 * raw score above it, so one complete moment beats its two halves: a plain sum of scores would
 * chop every strong passage into pieces. At least one clip is still returned when there is speech.
 */
const POSTABLE_RAW = 0.5;
/** Share of the score given to the custom prompt when there is one: the user asked for it. */
const PROMPT_WEIGHT = 0.35;
/** Lead-in before the first word and tail after the last, so no word is clipped at the cut. */
const LEAD_SECONDS = 0.2;
const TAIL_SECONDS = 0.4;

export function rankClipBasic(transcript: Transcript, config: RankConfig, signals: AudioSignals | null = null): RankResult {
	const frame = frameOf(config, transcript.duration);
	const sentences = sentencesOf(transcript).filter((s) => s.start >= frame.start - 0.01 && s.end <= frame.end + 0.01);
	const genre = config.genre === "Auto" ? inferGenre(transcript.text) : config.genre;
	if (sentences.length === 0) return { clips: [], genre };
	const context = buildContext(sentences, config, signals, genre, frame);

	if (config.clipType === "split-clips") return { clips: splitClips(sentences, config, context), genre };

	const candidates: ScoredWindow[] = [];
	for (let i = 0; i < sentences.length; i++) {
		for (let j = i; j < sentences.length; j++) {
			const span = sentences[j]!.end - sentences[i]!.start;
			if (span > config.clipDurationMax) break;
			if (span >= config.clipDurationMin) candidates.push(scoreWindow(sentences, i, j, context));
		}
	}
	if (candidates.length === 0) {
		// The whole frame is shorter than the minimum: one clip of all its speech is still useful.
		const whole = scoreWindow(sentences, 0, sentences.length - 1, context);
		return { clips: whole.end - whole.start >= 3 ? [publicClip(whole)] : [], genre };
	}
	const worthy = candidates.filter((c) => c.raw > POSTABLE_RAW);
	if (worthy.length === 0) return { clips: [publicClip(candidates.reduce((a, b) => (b.raw > a.raw ? b : a)))], genre };
	const picked = selectNonOverlapping(
		worthy.map((c) => ({ start: c.start, end: c.end, score: c.raw - POSTABLE_RAW, clip: c })),
		maxClipsFor(frame.end - frame.start, config.clipDurationMin),
	);
	const clips = picked.map((p) => p.clip).sort((a, b) => b.raw - a.raw || a.start - b.start);
	return { clips: clips.map(publicClip), genre };
}

function maxClipsFor(frameSeconds: number, minDuration: number): number {
	return Math.max(1, Math.min(MAX_CLIPS, Math.max(3, Math.floor(frameSeconds / (2 * minDuration)))));
}

/** split-clips: consecutive parts covering the frame, each ending on a sentence end. */
function splitClips(sentences: Sentence[], config: RankConfig, context: Context): RankedClip[] {
	const parts: [number, number][] = [];
	let first = 0;
	for (let j = 0; j < sentences.length; j++) {
		const span = sentences[j]!.end - sentences[first]!.start;
		const next = sentences[j + 1];
		const nextSpan = next ? next.end - sentences[first]!.start : Infinity;
		if (span >= config.clipDurationMin && (nextSpan > config.clipDurationMax || !next)) {
			parts.push([first, j]);
			first = j + 1;
		}
	}
	if (first < sentences.length) {
		// A short tail joins the previous part when it fits, else stands alone.
		const last = parts[parts.length - 1];
		if (last && sentences[sentences.length - 1]!.end - sentences[last[0]]!.start <= config.clipDurationMax) last[1] = sentences.length - 1;
		else parts.push([first, sentences.length - 1]);
	}
	return parts.map(([i, j], n) => {
		const clip = publicClip(scoreWindow(sentences, i, j, context));
		return { ...clip, title: `Part ${n + 1}: ${clip.title}` };
	});
}

interface Context {
	weights: Weights;
	frame: { start: number; end: number };
	/** Inverse document frequency of each content word over the video's sentences. */
	idf: Map<string, number>;
	df: Map<string, number>;
	sentenceSalience: number[];
	maxSalience: number;
	continuity: number[];
	promptTerms: Set<string>;
	avgWindowTerms: number;
	signals: AudioSignals | null;
	loudnessMedian: number;
	loudnessSpread: number;
}

function buildContext(sentences: Sentence[], config: RankConfig, signals: AudioSignals | null, genre: ConcreteGenre, frame: { start: number; end: number }): Context {
	const df = new Map<string, number>();
	for (const sentence of sentences) for (const term of new Set(contentTerms(sentence.text))) df.set(term, (df.get(term) ?? 0) + 1);
	const idf = new Map<string, number>();
	for (const [term, count] of df) idf.set(term, Math.log((1 + sentences.length) / (1 + count)) + 1);
	const sentenceTerms = sentences.map((s) => contentTerms(s.text));
	const sentenceSalience = sentenceTerms.map((terms) => (terms.length ? terms.reduce((sum, t) => sum + (idf.get(t) ?? 0), 0) / Math.sqrt(terms.length) : 0));
	const loud = (signals?.loudness ?? []).filter((v) => Number.isFinite(v) && v > -70).sort((a, b) => a - b);
	const median = loud.length ? loud[Math.floor(loud.length / 2)]! : 0;
	const spread = loud.length ? (loud[Math.floor(loud.length * 0.84)]! - loud[Math.floor(loud.length * 0.16)]!) / 2 : 1;
	const termsPerSecond = sentences.reduce((n, s) => n + contentTerms(s.text).length, 0) / Math.max(1, frame.end - frame.start);
	return {
		weights: GENRE_WEIGHTS[genre],
		frame,
		idf,
		df,
		sentenceSalience,
		maxSalience: sentenceSalience.reduce((m, v) => Math.max(m, v), 1e-6),
		continuity: topicalContinuity(sentenceTerms, idf),
		promptTerms: new Set(contentTerms(config.customPrompt ?? "")),
		avgWindowTerms: termsPerSecond * ((config.clipDurationMin + config.clipDurationMax) / 2),
		signals,
		loudnessMedian: median,
		loudnessSpread: Math.max(1, spread),
	};
}

/**
 * ClipBasic's features for given time spans (each snapped outward to whole sentences): how ClipPro
 * explains the windows an LLM chose with the same breakdown ClipBasic gives its own.
 */
export function scoreSpans(transcript: Transcript, config: RankConfig, signals: AudioSignals | null, spans: { start: number; end: number }[]): RankedClip[] {
	const frame = frameOf(config, transcript.duration);
	const sentences = sentencesOf(transcript).filter((s) => s.start >= frame.start - 0.01 && s.end <= frame.end + 0.01);
	if (sentences.length === 0) return [];
	const context = buildContext(sentences, config, signals, config.genre === "Auto" ? inferGenre(transcript.text) : config.genre, frame);
	return spans.flatMap((span) => {
		const i = sentences.findIndex((s) => s.end > span.start);
		let j = sentences.length - 1;
		while (j > 0 && sentences[j]!.start >= span.end) j--;
		return i === -1 || j < i ? [] : [publicClip(scoreWindow(sentences, i, j, context))];
	});
}

/** A candidate with its raw 0..1 score, which selection compares (the 0-100 score saturates near the top). */
interface ScoredWindow extends RankedClip {
	raw: number;
}

function publicClip({ raw: _raw, ...clip }: ScoredWindow): RankedClip {
	return clip;
}

function scoreWindow(sentences: Sentence[], i: number, j: number, context: Context): ScoredWindow {
	const window = sentences.slice(i, j + 1);
	const opening = window[0]!;
	const text = window.map((s) => s.text).join(" ");
	const words = tokens(text);
	const start = Math.max(context.frame.start, opening.start - LEAD_SECONDS);
	const end = Math.min(context.frame.end, window[window.length - 1]!.end + TAIL_SECONDS);
	const seconds = Math.max(0.001, end - start);
	const salience = window.reduce((sum, _, k) => sum + context.sentenceSalience[i + k]!, 0) / window.length / context.maxSalience;

	const openingHook = hookStrength(opening.text);
	const breakdown: ScoreBreakdown = {
		// The first two sentences make the hook: a question answered at once still hooks.
		hook: Math.max(openingHook, 0.6 * hookStrength(window[1]?.text ?? "")),
		emotion: emotionalIntensity(words),
		salience: Math.min(1, salience),
		pace: paceScore(window.reduce((n, s) => n + s.words.length, 0) / seconds),
		completeness: completeness(window, i, context.continuity, openingHook),
		energy: energy(context.signals, start, end, context.loudnessMedian, context.loudnessSpread),
		relevance: context.promptTerms.size ? bm25(contentTerms(text), context.promptTerms, context.df, sentences.length, context.avgWindowTerms) : null,
	};
	const raw = weightedSum(breakdown, context.weights);
	return {
		start: round2(start),
		end: round2(end),
		score: calibrate(raw),
		raw,
		title: titleFor(window, context, i),
		hookTitle: titleFor(window, context, i),
		viralityReason: reasonFor(breakdown, context.weights, opening.text, topTerms(text, context), matchedPromptTerms(words, context.promptTerms)),
		transcript: text,
		scoreBreakdown: toPercent(breakdown),
	};
}

/**
 * Weighted mean over the features that exist (energy needs signals, relevance a prompt), then
 * gated by completeness: a clip that cuts a story off is worse in every genre, however loud or
 * emotional its half is, so completeness scales the whole score as well as counting in the mean.
 */
function weightedSum(features: ScoreBreakdown, weights: Weights): number {
	let sum = 0;
	let weight = 0;
	for (const key of Object.keys(weights) as (keyof Weights)[]) {
		const value = features[key];
		if (value === null) continue;
		sum += weights[key] * value;
		weight += weights[key];
	}
	const base = weight > 0 ? sum / weight : 0;
	const mixed = features.relevance === null ? base : (1 - PROMPT_WEIGHT) * base + PROMPT_WEIGHT * features.relevance;
	return mixed * (0.55 + 0.45 * features.completeness);
}

/**
 * Raw 0..1 → 0..100 along a logistic curve centred where an ordinary passage lands (≈ 0.4), so
 * ordinary talk scores in the 30s-50s and only windows strong on several features reach the 80s.
 */
export function calibrate(raw: number): number {
	return Math.round(100 / (1 + Math.exp(-(raw - 0.4) * 9)));
}

function toPercent(b: ScoreBreakdown): ScoreBreakdown {
	const pct = (v: number) => Math.round(v * 100);
	return {
		hook: pct(b.hook),
		emotion: pct(b.emotion),
		salience: pct(b.salience),
		pace: pct(b.pace),
		completeness: pct(b.completeness),
		energy: b.energy === null ? null : pct(b.energy),
		relevance: b.relevance === null ? null : pct(b.relevance),
	};
}

function matchedPromptTerms(words: string[], promptTerms: Set<string>): string[] {
	return [...new Set(words.filter((t) => promptTerms.has(t)))].slice(0, 3);
}

function topTerms(text: string, context: Context, count = 2): string[] {
	const tf = new Map<string, number>();
	for (const t of contentTerms(text)) tf.set(t, (tf.get(t) ?? 0) + 1);
	return [...tf]
		.map(([t, n]) => [t, n * (context.idf.get(t) ?? 0)] as const)
		.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
		.slice(0, count)
		.map(([t]) => t);
}

const FEATURE_PHRASES: Record<keyof Weights, string> = {
	hook: "a strong opening hook",
	emotion: "emotionally charged language",
	salience: "dense, specific content",
	pace: "a brisk speaking pace",
	completeness: "a self-contained beginning and end",
	energy: "high vocal energy",
};

function reasonFor(features: ScoreBreakdown, weights: Weights, opening: string, terms: string[], matched: string[]): string {
	const drivers = (Object.keys(weights) as (keyof Weights)[])
		.filter((k) => features[k] !== null)
		.map((k) => [k, weights[k] * (features[k] as number)] as const)
		.sort((a, b) => b[1] - a[1])
		.filter(([, v]) => v > 0.03)
		.slice(0, 2)
		.map(([k]) => FEATURE_PHRASES[k]);
	const kinds = hookKinds(opening);
	const hookParts = [kinds.question && "a question", kinds.number && "a number", kinds.address && "direct address", kinds.contrast && "a contrast", kinds.claim && "a strong claim"].filter(Boolean);
	const parts = [drivers.length ? `Scored on ${drivers.join(" and ")}` : "A complete, coherent passage"];
	if (matched.length) parts.unshift(`Matches your prompt (${matched.join(", ")})`);
	if (features.hook > 0 && hookParts.length) parts.push(`the opening uses ${hookParts.slice(0, 2).join(" and ")}`);
	if (terms.length) parts.push(`key topics: ${terms.join(", ")}`);
	return `${parts.join("; ")}.`;
}

/**
 * The clip's key phrase as its title: the opening line when it hooks, otherwise the most salient
 * sentence of the clip's first half, cut at a word boundary.
 */
function titleFor(window: Sentence[], context: Context, firstIndex: number): string {
	const opening = window[0]!;
	let chosen = opening;
	if (hookStrength(opening.text) < 0.35) {
		const half = window.slice(0, Math.max(1, Math.ceil(window.length / 2)));
		chosen = half.reduce((best, s, k) => (context.sentenceSalience[firstIndex + k]! > context.sentenceSalience[firstIndex + half.indexOf(best)]! ? s : best), opening);
	}
	const words = chosen.text.replace(/[.!…]+$/, "").trim().split(/\s+/);
	const short = words.slice(0, 9).join(" ") + (words.length > 9 ? "…" : "");
	return short.charAt(0).toUpperCase() + short.slice(1);
}

const round2 = (n: number) => Math.round(n * 100) / 100;
