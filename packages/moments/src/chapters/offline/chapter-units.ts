/**
 * The transcript's sentences as the chapters read them: the ranker's sentences (text/units.ts) with
 * only what segmentation, titles and summaries use (stems, content terms, backchannels, questions),
 * without the ranker's many phrase lists and feelings, so an hour of talk is read in about half
 * the time. The ranker's own units fit this shape too (split-clips passes them).
 */
import { BACKCHANNEL_WORDS, FILLER_WORDS, QUESTION_SHAPE } from "../../text/lexicon.ts";
import { analyseWords } from "../../text/nlp.ts";
import { isContent, type Unit } from "../../text/units.ts";
import { sentencesOf, type Transcript } from "../../text/transcript.ts";

export type ChapterUnit = Pick<
	Unit,
	| "index"
	| "start"
	| "end"
	| "text"
	| "words"
	| "terms"
	| "tagged"
	| "backchannel"
	| "wordCount"
	| "question"
	| "fillers"
>;

export function chapterUnitsOf(transcript: Pick<Transcript, "segments">): ChapterUnit[] {
	const sentences = sentencesOf(transcript);
	const infos = analyseWords(sentences.flatMap((s) => s.words.map((w) => w.word)));
	let at = 0;
	return sentences.map((sentence, index) => {
		const words = infos.slice(at, at + sentence.words.length);
		at += sentence.words.length;
		const norms = words.map((w) => w.norm).filter(Boolean);
		const fillers = norms.filter((n) => FILLER_WORDS.has(n)).length;
		const spoken = norms.filter((n) => !FILLER_WORDS.has(n));
		return {
			index,
			start: sentence.start,
			end: sentence.end,
			text: sentence.text,
			words: sentence.words,
			tagged: words.map(({ norm, stem, lemma, pos }) => ({ norm, stem, lemma, pos })),
			terms: words.filter((w) => w.norm && isContent(w)).map((w) => w.stem),
			backchannel: norms.length <= 4 && norms.every((n) => BACKCHANNEL_WORDS.has(n) || FILLER_WORDS.has(n)),
			wordCount: norms.length - fillers,
			fillers,
			question:
				/\?["')\s]*$/.test(sentence.text) ||
				(!/[.!?…]["')\s]*$/.test(sentence.text) && QUESTION_SHAPE.test(spoken.join(" "))),
		};
	});
}
