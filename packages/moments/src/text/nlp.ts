/**
 * What wink-nlp's English model reads from each transcript word: its stem (Porter2, for matching
 * "discussed" with "discussion"), lemma, part of speech, and whether a negation governs it. The
 * transcript is read in documents of about 500 words, each cut after a sentence end where one is
 * near (about 60 ms per 10,000 words once warm; a 3-hour transcript as one document would hold tens
 * of megabytes at once), and wink's tokens are mapped back to the transcript's words by character
 * offsets, so word timings stay exact.
 */
import winkNLP, { type ItsFunction } from "wink-nlp";
import model from "wink-eng-lite-web-model";

export interface WordInfo {
	/** Lower-case surface form without punctuation ("don't" → "don't"). */
	norm: string;
	stem: string;
	lemma: string;
	/** Universal POS of the word's first token (ADJ, NOUN, PROPN, VERB, NUM, …). */
	pos: string;
	negated: boolean;
}

let nlp: ReturnType<typeof winkNLP> | null = null;
const reader = () => (nlp ??= winkNLP(model, ["sbd", "pos", "negation"]));

const CHUNK_WORDS = 500;

/** One WordInfo per input word (same order). */
export function analyseWords(words: readonly string[]): WordInfo[] {
	const infos: WordInfo[] = words.map((w) => ({ norm: normalise(w), stem: "", lemma: "", pos: "X", negated: false }));
	for (let from = 0; from < words.length;) {
		let to = Math.min(words.length, from + CHUNK_WORDS);
		// End the document on a sentence end within the last 100 words when there is one.
		for (let k = to; to < words.length && k > to - 100; k--) {
			if (/[.!?]["')]*$/.test(words[k - 1]!)) {
				to = k;
				break;
			}
		}
		readChunk(words, infos, from, to);
		from = to;
	}
	for (const info of infos) if (!info.stem) info.stem = info.lemma = info.norm;
	return infos;
}

/**
 * The stem a prompt and the transcript are matched by: the word's stem, with numbers as digits
 * ("twelve" and "12" are one word to match: Whisper writes digits, other engines and people either),
 * and a hyphenated word as its parts written together ("back-end" and "backend" are one word; the
 * tagger's stem of "back-end" is "back").
 */
export function matchStem(word: Pick<WordInfo, "norm" | "stem">): string {
	return NUMBER_STEMS.get(word.norm) ?? compoundKey(word.norm) ?? word.stem;
}

/** "back-end" / "back-ends" → "backend"; null for a word without a hyphen between letters. */
export function compoundKey(norm: string): string | null {
	if (!/\p{L}-\p{L}/u.test(norm)) return null;
	const joined = norm.replace(/-/g, "");
	return joined.length > 4 && /[^s]s$/.test(joined) ? joined.slice(0, -1) : joined;
}

const NUMBER_STEMS = new Map(
	"two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty"
		.split(" ")
		.map((word, k) => [word, String(k + 2)] as const)
		.concat(
			"thirty forty fifty sixty seventy eighty ninety"
				.split(" ")
				.map((word, k) => [word, String((k + 3) * 10)] as const),
		),
);

function readChunk(all: readonly string[], infos: WordInfo[], from: number, to: number): void {
	const words = all.slice(from, to);
	const engine = reader();
	const its = engine.its;
	const text = words.join(" ");
	const wordAt = new Int32Array(text.length + 1).fill(-1);
	for (let i = 0, at = 0; i < words.length; i++) {
		wordAt.fill(i, at, at + words[i]!.length + 1);
		at += words[i]!.length + 1;
	}
	const tokens = engine.readDoc(text).tokens();
	// Each property read for all tokens at once (one call per property, not per token). wink's
	// typings do not cover the model add-ons (stem, lemma): every property is read as strings.
	const column = (property: unknown) => (tokens.out(property as ItsFunction<string>) as unknown[]).map(String);
	const values = column(its.value);
	const spaces = column(its.precedingSpaces);
	const pos = column(its.pos);
	const stems = column(its.stem);
	const lemmas = column(its.lemma);
	const negated = column(its.negationFlag);
	let offset = 0;
	for (let n = 0; n < values.length; n++) {
		offset += spaces[n]!.length;
		const index = wordAt[offset] ?? -1;
		offset += values[n]!.length;
		if (index < 0 || pos[n] === "PUNCT" || pos[n] === "SPACE") continue;
		const info = infos[from + index]!;
		// A word is several tokens when it holds a contraction ("didn't" = did + n't): the first names it.
		if (!info.stem) {
			info.stem = stems[n]!.toLowerCase();
			info.lemma = lemmas[n]!.toLowerCase();
			info.pos = pos[n]!;
		}
		if (negated[n] === "true") info.negated = true;
	}
}

/** "Don't," → "don't"; "Mm-hmm." → "mm-hmm"; a vowel sign ending a Devanagari word stays ("तो," → "तो"). */
export function normalise(word: string): string {
	return word
		.toLowerCase()
		.replace(/[’‘]/g, "'")
		.replace(/^[^\p{L}\p{M}\p{N}]+|[^\p{L}\p{M}\p{N}]+$/gu, "");
}
