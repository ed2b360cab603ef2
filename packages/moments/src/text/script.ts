/**
 * How scripts are written, for everything that puts words back together: Chinese, Japanese, Thai,
 * Lao, Khmer and Burmese put no space between words (a transcript's words in those scripts are
 * joined without one), and a sentence of them ends on its own stop ("。", "！", "？"), as Hindi's
 * ends on the danda ("।"). Also which language a text's words are read in: the ranker's tagger,
 * its phrase lists and its written reasons are English, and are only used where the talk is.
 */
import { languageBase } from "@clipforge/domain";

/**
 * Characters of scripts written without spaces between words, and their punctuation (、。, full-width forms).
 * By Script_Extensions: marks the Japanese scripts share (ー, ・) are Script=Common, so a word a recognizer
 * cut to open on one ("ハ" + "ーフ") was joined with a space.
 */
const UNSPACED =
	/[\p{Script_Extensions=Han}\p{Script_Extensions=Hiragana}\p{Script_Extensions=Katakana}\p{Script_Extensions=Thai}\p{Script_Extensions=Lao}\p{Script_Extensions=Khmer}\p{Script_Extensions=Myanmar}\u3000-\u303f\uff00-\uffef]/u;

/** Whether a text holds words of a script written without spaces. */
export const hasUnspaced = (text: string) => UNSPACED.test(text);

const lastChar = (text: string) => [...text].pop() ?? "";
const firstChar = (text: string) => [...text][0] ?? "";

/**
 * Words joined as their script writes them: no space between two words written without spaces.
 * Linear in the words: it looks at the last word's last character, never at the text so far.
 */
export function joinWords(words: readonly string[]): string {
	let text = "";
	let previous = "";
	for (const raw of words) {
		const word = raw.trim();
		if (word === "") continue;
		const glue =
			previous !== "" && !(UNSPACED.test(lastChar(previous)) && UNSPACED.test(firstChar(word))) ? " " : "";
		text += glue + word;
		previous = word;
	}
	return text;
}

/** A sentence's own end in any script: . ! ? … and 。！？ and the Devanagari danda. */
export const SENTENCE_END = /[.!?…。！？।॥]["'”’)」』]*$/;

/**
 * Whether the talk is in English: the language the transcript carries ("en", "en-US"), or, when it
 * carries none ("und", ""), text in Latin letters. The English tagger, phrase lists, chatter and the
 * offline ranker's written reasons apply only then.
 */
export function isEnglish(language: string | null | undefined, sample = ""): boolean {
	const base = languageBase(language ?? "");
	if (base === "en") return true;
	if (base !== "" && base !== "und") return false;
	const letters = [...sample].filter((c) => /\p{L}/u.test(c));
	return letters.length === 0 || letters.filter((c) => /\p{Script=Latin}/u.test(c)).length >= 0.8 * letters.length;
}
