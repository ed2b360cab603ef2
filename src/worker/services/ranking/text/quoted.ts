/**
 * A spoken sentence as a quote a person would write: no "um", no word said twice in a row ("on on",
 * "and and"), none of the words that hand over rather than say something at its start ("And then",
 * "Yeah, OK, so,"), with the capitals a dictionary is sure of and a capital first letter.
 */
import { asWritten } from "./written-case";

const FILLERS = /\b(?:um+|uh+|er+|erm|hmm+)\b[,.]?\s*/gi;
/** A word said again at once, with or without a comma between: "on on", "this, this". */
const REPEATED = /\b([\p{L}']+)(?:,?\s+\1\b)+/giu;
const LEAD_IN =
	/^(?:(?:and|so|but|um|uh|well|like|yeah|okay|ok|oh|anyway|anyways|right|alright|then|now|actually|i mean)\b[,.]?\s+)+/i;

export function quoted(text: string): string {
	const spoken = text.replace(FILLERS, "").replace(/\s+/g, " ").trim().replace(REPEATED, "$1");
	const opened = spoken.replace(LEAD_IN, "");
	// A sentence that is all lead-in ("Okay, so.") keeps its words.
	const said = opened.split(" ").length >= 3 ? opened : spoken;
	const written = asWritten(said);
	return written.charAt(0).toUpperCase() + written.slice(1);
}
