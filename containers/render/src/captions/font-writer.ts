/**
 * How an event's text is written: escaped for ASS, in the look's face or the fallback face of each
 * script (`\fn` / `\fs` tags where the face changes), right-to-left pages opened with the right
 * mark, tokens joined as their script writes them. Pure.
 */
import { type CaptionFonts, type Face } from "./fonts.ts";
import { directionOf, hasRtl, joinTokens, type Token } from "./text.ts";
import { escapeAssText } from "./ass-syntax.ts";

/** How a caption event's text is written: the look's fonts and the transcript's CJK region and case locale. */
export interface TextSetup {
	fonts: CaptionFonts;
	fontSize: number;
}

/**
 * Writes an event's text: escaped, with a `\fn` (and `\fs`, and `\b1` for a face the style does
 * not draw bold) wherever the face changes, back to the look's font after. Faces are chosen per
 * line (captions/fonts.ts), so `line(text)` gives a function writing any slice of that line; one
 * writer per event, since override tags hold until the event's end.
 */
export function fontWriter({ fonts, fontSize }: TextSetup): {
	line(text: string): (from: number, to: number) => string;
} {
	let current: string | null = null;
	return {
		line(text) {
			const faces: (Face | null)[] = [];
			for (const run of fonts.runs(text)) for (let i = 0; i < run.text.length; i++) faces.push(run.face);
			return (from, to) => {
				let out = "";
				let i = from;
				while (i < to) {
					const face = faces[i] ?? null;
					let j = i + 1;
					while (j < to && (faces[j] ?? null)?.family === face?.family) j++;
					const family = face?.family ?? null;
					if (family !== current) {
						out += face
							? `{\\fn${face.family}\\fs${fonts.sizeFor(face, fontSize)}${fonts.bold ? "" : "\\b1"}}`
							: `{\\fn${fonts.family}\\fs${fontSize}${fonts.bold ? "" : "\\b0"}}`;
						current = family;
					}
					out += escapeAssText(text.slice(i, j));
					i = j;
				}
				return out;
			};
		},
	};
}

/** A whole string written in one go. */
export const writeAll = (writer: ReturnType<typeof fontWriter>, text: string) => writer.line(text)(0, text.length);

/**
 * What opens a line: on a page that reads right to left, a right-to-left mark before a line whose
 * first strong letter is left-to-right (libass takes each line's direction from that letter), and
 * the other way round; nothing otherwise.
 */
export function lineOpener(page: string, line: string): string {
	if (!hasRtl(page)) return "";
	const direction = directionOf(page);
	if (directionOf(line) === direction) return "";
	return direction === "rtl" ? "\u200F" : "\u200E";
}

/**
 * A line of tokens written with `decorate(i, written)` around each token (colour or alpha tags),
 * tokens joined as their script writes them.
 */
export function writeLine(
	writer: ReturnType<typeof fontWriter>,
	tokens: Token[],
	opener: string,
	decorate: (i: number, written: string) => string,
): string {
	const text =
		opener +
		joinTokens(
			tokens.map((t) => t.word),
			tokens,
		);
	const write = writer.line(text);
	let offset = opener.length;
	let out = opener ? write(0, opener.length) : "";
	tokens.forEach((token, i) => {
		if (i > 0 && token.spaceBefore) {
			out += write(offset, offset + 1);
			offset++;
		}
		out += decorate(i, write(offset, offset + token.word.length));
		offset += token.word.length;
	});
	return out;
}
