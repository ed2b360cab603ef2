/**
 * ClipBasic v0: a deterministic ranker over the transcript, pure TypeScript, no network.
 *
 * Candidates are windows of whole sentences inside the duration range and the time frame. Each is
 * scored on features a viewer notices in the first seconds and overall (hook of the opening
 * sentence, emotional words, keyword salience against the whole video, speaking pace, a clean
 * start), the best non-overlapping windows are kept, and the reason names the features that drove
 * the score. Issue 4 deepens the features (audio energy, AFINN, BM25 relevance, genre weights).
 */
import { frameOf, type VideoConfig } from "../../routes/videos/config.schema";
import { sentencesOf, type Sentence, type Transcript } from "../transcription/transcript";

export interface RankedClip {
	start: number;
	end: number;
	score: number;
	title: string;
	viralityReason: string;
	transcript: string;
}

export type RankConfig = Pick<VideoConfig, "clipType" | "clipDurationMin" | "clipDurationMax" | "timeframeStart" | "timeframeEnd" | "customPrompt">;

const MAX_CLIPS = 10;
/** Lead-in before the first word and tail after the last, so no word is clipped at the cut. */
const LEAD_SECONDS = 0.2;
const TAIL_SECONDS = 0.4;

const QUESTION_OPENERS = /^(what|why|how|who|when|where|which|do|does|did|have|has|is|are|can|could|would|should|will)\b/i;
const NUMBER = /\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|twenty|hundred|thousand|million|billion|first|second|third)\b/i;
const DIRECT_ADDRESS = /\b(you|your|you're|yourself)\b/i;
const CONTRAST = /\b(but|however|actually|instead|truth|myth|wrong|mistake|secret|nobody|everyone|never|always|stop)\b/i;
const STRONG_CLAIM = /\b(best|worst|most|biggest|only|every|guaranteed|proven|changed|shocking|incredible|insane|crazy)\b/i;
const DANGLING_START = /^(and|so|but|or|because|it|that|this|they|he|she|which|then|also)\b/i;
const EMOTION_WORDS = new Set(
	"love hate amazing awesome terrible horrible incredible insane crazy shocking scared afraid angry happy sad excited beautiful brilliant disaster fail failed failure win won winning lost painful hilarious funny wow unbelievable perfect worst best huge massive tiny dangerous secret".split(" "),
);
const STOP_WORDS = new Set(
	"a an the and or but so if of to in on at by for with from as is are was were be been being it its this that these those i me my we our you your he she they them his her their what which who whom do does did have has had not no yes just very really can could would should will shall may might must there here then than too also about into over out up down".split(" "),
);

interface Features {
	hook: number;
	emotion: number;
	salience: number;
	pace: number;
	cleanStart: number;
	relevance: number;
}

const WEIGHTS: Features = { hook: 0.32, emotion: 0.14, salience: 0.22, pace: 0.12, cleanStart: 0.1, relevance: 0.1 };
/** With a custom prompt, matching it is what the user asked for: it weighs as much as the hook. */
const PROMPT_WEIGHTS: Features = { hook: 0.24, emotion: 0.1, salience: 0.16, pace: 0.08, cleanStart: 0.1, relevance: 0.32 };

export function rankClipBasic(transcript: Transcript, config: RankConfig): RankedClip[] {
	const frame = frameOf(config, transcript.duration);
	const sentences = sentencesOf(transcript).filter((s) => s.start >= frame.start - 0.01 && s.end <= frame.end + 0.01);
	if (sentences.length === 0) return [];
	const context = buildContext(sentences, config.customPrompt);

	if (config.clipType === "split-clips") return splitClips(sentences, config, context, frame);

	const candidates: RankedClip[] = [];
	for (let i = 0; i < sentences.length; i++) {
		for (let j = i; j < sentences.length; j++) {
			const span = sentences[j]!.end - sentences[i]!.start;
			if (span > config.clipDurationMax) break;
			if (span >= config.clipDurationMin) candidates.push(scoreWindow(sentences, i, j, context, frame));
		}
	}
	if (candidates.length === 0) {
		// The whole frame is shorter than the minimum: one clip of all its speech is still useful.
		const whole = scoreWindow(sentences, 0, sentences.length - 1, context, frame);
		return whole.end - whole.start >= 3 ? [whole] : [];
	}
	return pickNonOverlapping(candidates, maxClipsFor(frame.end - frame.start, config.clipDurationMin));
}

function maxClipsFor(frameSeconds: number, minDuration: number): number {
	return Math.max(1, Math.min(MAX_CLIPS, Math.max(3, Math.floor(frameSeconds / (2 * minDuration)))));
}

/** Highest scores first, skipping any window that overlaps one already taken. */
function pickNonOverlapping(candidates: RankedClip[], limit: number): RankedClip[] {
	const sorted = [...candidates].sort((a, b) => b.score - a.score || a.start - b.start);
	const picked: RankedClip[] = [];
	for (const candidate of sorted) {
		if (picked.length >= limit) break;
		if (picked.some((p) => candidate.start < p.end && p.start < candidate.end)) continue;
		picked.push(candidate);
	}
	return picked;
}

/** split-clips: consecutive parts covering the frame, each ending on a sentence end. */
function splitClips(sentences: Sentence[], config: RankConfig, context: Context, frame: { start: number; end: number }): RankedClip[] {
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
		const clip = scoreWindow(sentences, i, j, context, frame);
		return { ...clip, title: `Part ${n + 1}: ${clip.title}` };
	});
}

interface Context {
	/** Inverse document frequency of each content word over the video's sentences. */
	idf: Map<string, number>;
	maxSentenceSalience: number;
	promptTerms: Set<string>;
}

function buildContext(sentences: Sentence[], customPrompt: string | null): Context {
	const df = new Map<string, number>();
	for (const sentence of sentences) {
		for (const term of new Set(contentTerms(sentence.text))) df.set(term, (df.get(term) ?? 0) + 1);
	}
	const idf = new Map<string, number>();
	for (const [term, count] of df) idf.set(term, Math.log((1 + sentences.length) / (1 + count)) + 1);
	const context: Context = { idf, maxSentenceSalience: 0, promptTerms: new Set(contentTerms(customPrompt ?? "")) };
	context.maxSentenceSalience = Math.max(1e-6, ...sentences.map((s) => sentenceSalience(s, context)));
	return context;
}

function scoreWindow(sentences: Sentence[], i: number, j: number, context: Context, frame: { start: number; end: number }): RankedClip {
	const window = sentences.slice(i, j + 1);
	const opening = window[0]!;
	const text = window.map((s) => s.text).join(" ");
	const words = window.flatMap((s) => s.words);
	const start = Math.max(frame.start, opening.start - LEAD_SECONDS);
	const end = Math.min(frame.end, window[window.length - 1]!.end + TAIL_SECONDS);
	const seconds = Math.max(0.001, end - start);

	const tokens = text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
	const features: Features = {
		hook: hookStrength(opening.text),
		emotion: Math.min(1, (tokens.filter((t) => EMOTION_WORDS.has(t)).length / Math.max(1, tokens.length)) * 12),
		salience: Math.min(1, window.reduce((sum, s) => sum + sentenceSalience(s, context), 0) / window.length / context.maxSentenceSalience),
		pace: paceScore(words.length / seconds),
		cleanStart: DANGLING_START.test(opening.text.trim()) ? 0 : 1,
		relevance: relevance(tokens, context.promptTerms),
	};
	const weights = context.promptTerms.size > 0 ? PROMPT_WEIGHTS : WEIGHTS;
	const raw = (Object.keys(weights) as (keyof Features)[]).reduce((sum, k) => sum + weights[k] * features[k], 0);
	return {
		start: round2(start),
		end: round2(end),
		score: Math.max(0, Math.min(100, Math.round(100 * raw))),
		title: titleFrom(opening.text),
		viralityReason: reasonFor(features, weights, opening.text, topTerms(text, context), promptMatches(tokens, context.promptTerms)),
		transcript: text,
	};
}

/** 0..1 from what makes an opening line stop the scroll. */
export function hookStrength(sentence: string): number {
	const s = sentence.trim();
	let hook = 0;
	if (s.endsWith("?") || QUESTION_OPENERS.test(s)) hook += 0.35;
	if (NUMBER.test(s)) hook += 0.25;
	if (DIRECT_ADDRESS.test(s)) hook += 0.2;
	if (CONTRAST.test(s)) hook += 0.25;
	if (STRONG_CLAIM.test(s)) hook += 0.2;
	return Math.min(1, hook);
}

/** Brisk speech (about 2.5-3.5 words a second) holds attention; very slow or rushed less so. */
function paceScore(wordsPerSecond: number): number {
	if (wordsPerSecond <= 0) return 0;
	if (wordsPerSecond < 2.5) return Math.max(0, wordsPerSecond / 2.5);
	if (wordsPerSecond <= 3.5) return 1;
	return Math.max(0.4, 1 - (wordsPerSecond - 3.5) / 3);
}

function relevance(tokens: string[], promptTerms: Set<string>): number {
	if (promptTerms.size === 0) return 0.5; // neutral when the user gave no prompt
	const hits = new Set(tokens.filter((t) => promptTerms.has(t)));
	return Math.min(1, hits.size / Math.min(3, promptTerms.size));
}

function contentTerms(text: string): string[] {
	return (text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? []).filter((t) => t.length > 2 && !STOP_WORDS.has(t));
}

function sentenceSalience(sentence: Sentence, context: Context): number {
	const terms = contentTerms(sentence.text);
	if (terms.length === 0) return 0;
	return terms.reduce((sum, t) => sum + (context.idf.get(t) ?? 0), 0) / Math.sqrt(terms.length);
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

const FEATURE_PHRASES: Record<keyof Features, string> = {
	hook: "a strong opening hook",
	emotion: "emotionally charged language",
	salience: "dense, specific content",
	pace: "a brisk speaking pace",
	cleanStart: "a self-contained start",
	relevance: "a match to your prompt",
};

function promptMatches(tokens: string[], promptTerms: Set<string>): string[] {
	return [...new Set(tokens.filter((t) => promptTerms.has(t)))].slice(0, 3);
}

function reasonFor(features: Features, weights: Features, opening: string, terms: string[], matched: string[]): string {
	const ranked = (Object.keys(weights) as (keyof Features)[])
		.filter((k) => k !== "relevance")
		.map((k) => [k, weights[k] * features[k]] as const)
		.sort((a, b) => b[1] - a[1]);
	const drivers = ranked.filter(([, v]) => v > 0.05).slice(0, 2).map(([k]) => FEATURE_PHRASES[k]);
	const hookKinds = [
		opening.trim().endsWith("?") || QUESTION_OPENERS.test(opening) ? "a question" : null,
		NUMBER.test(opening) ? "a number" : null,
		DIRECT_ADDRESS.test(opening) ? "direct address" : null,
		CONTRAST.test(opening) ? "a contrast" : null,
	].filter(Boolean);
	const parts = [drivers.length ? `Scored on ${drivers.join(" and ")}` : "A complete, coherent passage"];
	if (matched.length) parts.unshift(`Matches your prompt (${matched.join(", ")})`);
	if (features.hook > 0 && hookKinds.length) parts.push(`the opening uses ${hookKinds.slice(0, 2).join(" and ")}`);
	if (terms.length) parts.push(`key topics: ${terms.join(", ")}`);
	return `${parts.join("; ")}.`;
}

function titleFrom(sentence: string): string {
	const words = sentence.replace(/[.!…]+$/, "").trim().split(/\s+/);
	const short = words.slice(0, 9).join(" ") + (words.length > 9 ? "…" : "");
	return short.charAt(0).toUpperCase() + short.slice(1);
}

const round2 = (n: number) => Math.round(n * 100) / 100;
