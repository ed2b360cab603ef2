/**
 * The stored transcript (`transcripts/{videoId}.json`, the same JSON `GET …/transcript` will serve):
 * language, segments with words, and all words with absolute times in seconds; and its sentences,
 * the unit everything that reads the talk starts from (where a sentence ends, its text with stops).
 */
import type { Segment, Word } from "@clipforge/contract";
import { joinWords, SENTENCE_END } from "./script.ts";

export interface Transcript {
	language: string;
	duration: number;
	text: string;
	segments: Segment[];
	words: Word[];
}

export interface Sentence {
	start: number;
	end: number;
	text: string;
	words: Word[];
	/** True when it ends with . ! ? or at a pause long enough to be a sentence end. */
	closed: boolean;
}

/** Titles and abbreviations Whisper writes with a stop inside a sentence: "Mr. Okafor's garage". */
const ABBREVIATION = /^(mr|mrs|ms|dr|prof|st|jr|sr|vs|mt|e\.g|i\.e)\.$/i;

/** Whether a word ends its sentence: a stop that is not an abbreviation's ("Mr."). */
export const endsSentence = (word: string) => {
	const trimmed = word.trim();
	return SENTENCE_END.test(trimmed) && !ABBREVIATION.test(trimmed);
};
/** Without punctuation (the local engine has none), a pause this long ends a sentence. */
const PAUSE_SECONDS = 0.6;
/** With punctuation (Whisper), punctuation decides; only a silence this long ends a sentence on its own. */
const PUNCTUATED_PAUSE_SECONDS = 2;

/** Splits the transcript into sentences: at punctuation, at segment ends and at long pauses. */
export function sentencesOf(transcript: Pick<Transcript, "segments">): Sentence[] {
	const sentences: Sentence[] = [];
	const punctuated = transcript.segments.some((s) => s.words.some((w) => endsSentence(w.word)));
	const pause = punctuated ? PUNCTUATED_PAUSE_SECONDS : PAUSE_SECONDS;
	for (const segment of transcript.segments) {
		let current: Word[] = [];
		const close = (closed: boolean) => {
			if (current.length === 0) return;
			sentences.push({
				start: current[0]!.start,
				end: current[current.length - 1]!.end,
				text: joinWords(current.map((w) => w.word)),
				words: current,
				closed,
			});
			current = [];
		};
		segment.words.forEach((word, i) => {
			current.push(word);
			const next = segment.words[i + 1];
			if (endsSentence(word.word)) close(true);
			else if (next && next.start - word.end >= pause) close(true);
		});
		close(true);
	}
	return sentences;
}

/**
 * Sentences as one text. The local engine writes no stops ("… in Chicago Every morning …"): where none
 * of the sentences ends with one, each that ended at a pause takes a full stop, or a question mark
 * when the caller reads it as a question, and the next opens with a capital.
 */
export function textWithStops(
	sentences: readonly (Pick<Sentence, "text" | "closed"> & { question?: boolean })[],
): string {
	if (sentences.some((s) => SENTENCE_END.test(s.text))) return joinWords(sentences.map((s) => s.text));
	// Stops are added only to scripts written with spaces and Latin-like stops: "।" or "。" are not ".".
	if (sentences.some((s) => !/^[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}\P{L}]*$/u.test(s.text)))
		return joinWords(sentences.map((s) => s.text));
	let opens = false;
	return sentences
		.map((s) => {
			const text = opens ? s.text.charAt(0).toUpperCase() + s.text.slice(1) : s.text;
			opens = s.closed;
			return opens ? `${text}${s.question ? "?" : "."}` : text;
		})
		.join(" ");
}

/** The text of the words inside [start, end] (each given by `wordOf`), in sentences as `textWithStops` writes them. */
export function clipText(
	transcript: Pick<Transcript, "segments">,
	start: number,
	end: number,
	wordOf: (word: Word) => string = (word) => word.word,
): string {
	const segments = transcript.segments
		.map((segment) => {
			const words = segment.words
				.filter((w) => w.end > start && w.start < end)
				.map((w) => ({ ...w, word: wordOf(w) }))
				.filter((w) => w.word.trim());
			return { ...segment, text: joinWords(words.map((w) => w.word)), words };
		})
		.filter((segment) => segment.words.length > 0);
	return textWithStops(sentencesOf({ segments }));
}
