/**
 * Sentence ends in talk written without punctuation and spoken without pauses (a fast talker, a
 * music bed under the voice, a recognizer that returns one segment of a minute). Each gap between
 * two words gets a probability that a sentence ends there, from a small logistic model over the
 * parts of speech and the most frequent words around the gap (sentence-end-model.ts, fitted by
 * `npm run train:sentence-ends` on the dev corpora with their punctuation taken away), and a run-on
 * is cut where that probability is high, never into pieces of fewer than MIN_WORDS words.
 */
import { CHATTER_PHRASES } from "./lexicon.ts";
import { analyseWords } from "./nlp.ts";
import { SENTENCE_END_MODEL } from "./sentence-end-model.ts";
import type { SparseLogistic } from "./sparse-logistic.ts";

/**
 * A stretch of talk longer than this (words) with no sentence end in it is read as several
 * sentences; in a punctuated transcript, whose long sentences are mostly real ones, only past twice that.
 */
export const RUN_ON_WORDS = 30;
export const RUN_ON_WORDS_PUNCTUATED = 60;
/** No piece shorter than this (words): "so", "you know" alone are not sentences. */
const MIN_WORDS = 3;
/** No piece longer than this (words): past it the likeliest end inside is taken even below the bar. */
const MAX_WORDS = 40;

/** The word and part of speech seen at each position, as the model reads them. */
export interface GapToken {
	norm: string;
	pos: string;
	/** Where a phrase of chatter (a greeting, a sign-off, a show's housekeeping) begins or ends on this word. */
	chatter?: { opens: boolean; closes: boolean };
}

/**
 * The features that fire at the gap before `tokens[k]`: the parts of speech of the two words on
 * each side, the pair across the gap, and the frequent words themselves.
 */
export function gapFeatures(tokens: readonly GapToken[], k: number, vocabulary: ReadonlySet<string>): string[] {
	const at = (n: number) => tokens[n] ?? { norm: "<edge>", pos: "EDGE" };
	const [z, a, b, c] = [at(k - 2), at(k - 1), at(k), at(k + 1)];
	const word = (side: string, t: GapToken) => (vocabulary.has(t.norm) ? [`${side}w:${t.norm}`] : []);
	// A greeting or a sign-off is a clause of its own: the gap before one opens and after one closes is a likely end.
	const chatter = [...(b.chatter?.opens ? ["chatter:opens"] : []), ...(a.chatter?.closes ? ["chatter:closes"] : [])];
	return [
		...chatter,
		`z:${z.pos}`,
		`a:${a.pos}`,
		`b:${b.pos}`,
		`c:${c.pos}`,
		`ab:${a.pos}_${b.pos}`,
		`bc:${b.pos}_${c.pos}`,
		...word("a", a),
		...word("b", b),
		...word("c", c),
	];
}

/** The words as the model reads them: lower case (recognizers differ in case), tagged in context. */
export function gapTokens(words: readonly string[]): GapToken[] {
	const infos = analyseWords(words.map((w) => (/^i('|$)/i.test(w.trim()) ? w.trim() : w.trim().toLowerCase())));
	const tokens: GapToken[] = infos.map((info) => ({ norm: info.norm, pos: info.pos }));
	markChatter(tokens);
	return tokens;
}

/** The phrases of chatter as words, by their first word. */
const CHATTER_BY_FIRST_WORD = new Map<string, string[][]>();
for (const phrase of CHATTER_PHRASES.map((p) => p.split(" "))) {
	CHATTER_BY_FIRST_WORD.set(phrase[0]!, [...(CHATTER_BY_FIRST_WORD.get(phrase[0]!) ?? []), phrase]);
}

/** Marks the first and the last word of every phrase of chatter said in `tokens`. */
function markChatter(tokens: GapToken[]): void {
	for (let k = 0; k < tokens.length; k++) {
		for (const phrase of CHATTER_BY_FIRST_WORD.get(tokens[k]!.norm) ?? []) {
			if (!phrase.every((w, n) => tokens[k + n]?.norm === w)) continue;
			const [first, last] = [tokens[k]!, tokens[k + phrase.length - 1]!];
			first.chatter = { opens: true, closes: first.chatter?.closes ?? false };
			last.chatter = { opens: last.chatter?.opens ?? false, closes: true };
		}
	}
}

export function gapLogit(model: SparseLogistic, features: readonly string[]): number {
	let z = model.bias;
	for (const f of features) z += model.weights[f] ?? 0;
	return z;
}

/**
 * Where sentences start inside one run of words (indices > 0 into `words`), none of them shorter
 * than MIN_WORDS nor, where a cut exists, longer than MAX_WORDS.
 */
export function sentenceStarts(words: readonly string[], model: SparseLogistic = SENTENCE_END_MODEL): number[] {
	if (words.length < 2 * MIN_WORDS) return [];
	const vocabulary = vocabularyOf(model);
	const tokens = gapTokens(words);
	const logits = tokens.map((_, k) => (k === 0 ? -Infinity : gapLogit(model, gapFeatures(tokens, k, vocabulary))));
	const cuts = new Set<number>();
	const fits = (k: number) => {
		for (const cut of cuts) if (Math.abs(cut - k) < MIN_WORDS) return false;
		return k >= MIN_WORDS && words.length - k >= MIN_WORDS;
	};
	// The likeliest ends first, each kept when it leaves no piece too short.
	const order = logits.map((_, k) => k).sort((x, y) => logits[y]! - logits[x]!);
	for (const k of order) if (logits[k]! > model.threshold && fits(k)) cuts.add(k);
	const starts = [...cuts].sort((x, y) => x - y);
	return withLongPiecesCut([0, ...starts, words.length], logits).slice(1, -1);
}

/** Bounds (first word of each piece, then the end) with every piece over MAX_WORDS cut at its likeliest end. */
function withLongPiecesCut(bounds: number[], logits: number[]): number[] {
	const out = [bounds[0]!];
	for (let p = 1; p < bounds.length; p++) {
		const [from, to] = [bounds[p - 1]!, bounds[p]!];
		if (to - from > MAX_WORDS) {
			let best = from + MIN_WORDS;
			for (let k = best; k <= to - MIN_WORDS; k++) if (logits[k]! > logits[best]!) best = k;
			out.push(...withLongPiecesCut([from, best, to], logits).slice(1, -1));
		}
		out.push(to);
	}
	return out;
}

const vocabularies = new WeakMap<SparseLogistic, ReadonlySet<string>>();
function vocabularyOf(model: SparseLogistic): ReadonlySet<string> {
	let set = vocabularies.get(model);
	if (!set) vocabularies.set(model, (set = new Set(model.vocabulary)));
	return set;
}
