/**
 * Words as a person writes them. The local speech engine writes every word in lower case ("ten
 * years ago i worked at a bakery in chicago"); a title or a quote gives back the capitals a
 * dictionary is sure of: "I", and the words it knows only with a capital (proper-nouns.ts). A word
 * that is not all lower case is left as written (Whisper's own capitals stay).
 */
import { PROPER_NOUNS } from "./proper-nouns.ts";

let properByLower: Map<string, string> | null = null;

function properForms(): Map<string, string> {
	// Built on first use: most requests never write a title.
	properByLower ??= new Map(PROPER_NOUNS.split(" ").map((w) => [w.toLowerCase(), w]));
	return properByLower;
}

/** One word ("chicago" → "Chicago", "i'm" → "I'm"); anything else as given. */
export function writtenForm(word: string): string {
	if (word !== word.toLowerCase()) return word;
	if (word === "i") return "I";
	if (/^i'(m|ve|ll|d)$/.test(word)) return `I${word.slice(1)}`;
	return properForms().get(word) ?? word;
}

/** Every word of a text, as writtenForm writes it. */
export function asWritten(text: string): string {
	return text.replace(/[\p{L}][\p{L}']*/gu, (word) => writtenForm(word));
}
