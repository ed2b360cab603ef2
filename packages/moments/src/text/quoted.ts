/**
 * A spoken sentence as a quote a person would write: no "um", no word said twice in a row ("on on",
 * "and and"), none of the words that hand over rather than say something at its start ("And then",
 * "Yeah, OK, so,"), with the capitals a dictionary is sure of and a capital first letter.
 */
import { asWritten } from "./written-case.ts";

const FILLERS = /\b(?:um+|uh+|er+|erm|hmm+)\b[,.]?\s*/gi;
/** A word or two said again at once, with or without a comma between: "on on", "this, this", "I almost, I almost". */
const REPEATED = /\b([\p{L}']+(?:\s+[\p{L}']+)?)(?:,?\s+\1\b)+/giu;
/**
 * A word broken off after two or three letters and said again whole: "Tha that's", "ph phonetic",
 * "rec- recognition". Short words that are words stay, even before a word they begin ("the thesis",
 * "to today's", "car carpets"); longer ones are never taken for a broken-off word ("eight eighty").
 */
const FALSE_START = /\b(\p{L}{2,3})-?\s+(\1[\p{L}']+)/giu;
const SHORT_WORDS = new Set(
	`in to on at is it be he we me no so do go up us or as of by my am if hi ha oh ok the and for not but can
	you one two six ten our out all any are was has had how new now see who get her his she its man car day end far
	few old own per put run say set sun top try use way yes yet art arm act air age ago bad big box boy cut eat eye
	fun god hot law lot low map may mom dad pay pen pot sea sit son tax tea war win bit bus fly key kid let lie mix
	net off pop saw sky tip van via web`.split(/\s+/),
);
const LEAD_IN =
	/^(?:(?:and|so|but|um|uh|well|like|yeah|okay|ok|oh|anyway|anyways|right|alright|then|now|actually|i mean)\b[,.]?\s+)+/i;

export function quoted(text: string): string {
	const spoken = text
		.replace(FILLERS, "")
		.replace(/\s+/g, " ")
		.trim()
		.replace(REPEATED, "$1")
		.replace(FALSE_START, (pair, start: string, word: string) =>
			SHORT_WORDS.has(start.toLowerCase()) ? pair : word,
		)
		// A quote never ends on a comma ("… to eight eighty,").
		.replace(/\s*[,;:]+$/, "");
	const opened = spoken.replace(LEAD_IN, "");
	// A sentence that is all lead-in ("Okay, so.") keeps its words.
	const said = opened.split(" ").length >= 3 ? opened : spoken;
	const written = asWritten(said);
	return written.charAt(0).toUpperCase() + written.slice(1);
}
