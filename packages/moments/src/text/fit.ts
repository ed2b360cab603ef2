/**
 * Text cut to a length at a word, and capitalised: every title, headline and line of a clip's words
 * goes through it (the LLM's words too). Lengths count what a reader sees (graphemes: a Devanagari
 * akshara or an emoji is one), and a cut in a script written without spaces falls between words.
 */
import { hasUnspaced } from "./script.ts";

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const words = new Intl.Segmenter(undefined, { granularity: "word" });

export function fit(text: string, characters: number): string {
	const clean = text.replace(/\s+/g, " ").trim();
	const seen = [...graphemes.segment(clean)].map((g) => g.segment);
	if (seen.length <= characters) return clean;
	const cut = seen.slice(0, characters - 1).join("");
	const at = hasUnspaced(cut) ? lastWordStart(cut) : cut.lastIndexOf(" ");
	return `${cut.slice(0, Math.max(at, Math.floor(cut.length / 2))).replace(/[,;:、，\s]+$/u, "")}…`;
}

/** Where the last word of a text written without spaces starts. */
function lastWordStart(text: string): number {
	let at = -1;
	for (const { index, isWordLike } of words.segment(text)) if (isWordLike) at = index;
	return at;
}

export const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
