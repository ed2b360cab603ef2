/**
 * Caption words as the script writes them. Transcript words arrive as Whisper gives them: words of
 * space-separated scripts, but tokens of 1-3 characters for Chinese, Japanese, Thai (no spaces in
 * those scripts), sometimes cut inside a character cluster (a Thai tone mark on the next token).
 * Here they become caption tokens:
 *
 * - a token cut inside a grapheme cluster is joined to the one before (never a dangling mark), and
 *   a token of punctuation only joins its neighbour where the script has no spaces ("、" "。" "「");
 * - tokens are joined with a space only where the script writes one (`spaceBefore`);
 * - a line may break before a token only where a reader would break: at a space, else at a word
 *   boundary (`Intl.Segmenter`, ICU's dictionaries for Chinese, Japanese, Thai, Lao, Khmer,
 *   Burmese) that does not put closing punctuation or a prolonged-sound mark at a line's start
 *   (`breakBefore`);
 * - upper-casing knows Turkish dotted i, Greek's accentless capitals, German ß (→ SS), and leaves
 *   Georgian alone (its capitals, Mtavruli, are not how captions are written, and fonts lack them).
 *
 * Karaoke highlights token by token; a "word" (what word-by-word shows, what page limits count) is a
 * unit: the tokens between two break opportunities.
 */
import type { Word } from "@clipforge/contract";

export interface Token extends Word {
	/** Drawn with a space before it (false for the first token of a line, and inside CJK/Thai text). */
	spaceBefore: boolean;
	/** A line (or a page, or word-by-word's step) may start at this token. */
	breakBefore: boolean;
}

/** A character class of these Unicode script (extension) names. */
const scripts = (names: string[], extra = "") =>
	new RegExp(`[${names.map((n) => `\\p{scx=${n}}`).join("")}${extra}]`, "u");
/** Characters of scripts written without spaces between words (and their full-width punctuation). */
const SPACELESS = scripts(
	["Han", "Hiragana", "Katakana", "Bopomofo", "Thai", "Lao", "Khmer", "Myanmar"],
	"\\u3000-\\u303f\\uff01-\\uff60",
);
/** Never at a line's start (kinsoku): closing and terminal punctuation, small kana, the prolonged-sound mark. */
const NO_LINE_START = new RegExp(
	"^[\\p{Pe}\\p{Pf}、。，．・：；！？‼⁇⁈⁉ー〜ゝゞヽヾ々…‥.,:;!?%)\\]}" +
		"ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰ-ㇿ]",
	"u",
);
/** Never at a line's end: opening brackets and quotes. */
const NO_LINE_END = /[\p{Ps}\p{Pi}]$/u;
/** A token of punctuation (and symbols) only. */
const PUNCTUATION_ONLY = /^[\p{P}\p{S}]+$/u;
const OPENING = /^[\p{Ps}\p{Pi}]+$/u;

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const words = new Intl.Segmenter(undefined, { granularity: "word" });

/** The first and last characters that are not marks (a token's letters at its edges). */
const firstChar = (text: string) => [...text].find((c) => !/\p{M}/u.test(c)) ?? "";
const lastChar = (text: string) => [...text].reverse().find((c) => !/\p{M}/u.test(c)) ?? "";

export const isSpaceless = (ch: string) => SPACELESS.test(ch);

/**
 * Whether two tokens are written with a space between them: not when either side of the junction is
 * in a script without spaces ("去年" + "の", "iPhone" + "を", "ข้าว" + "ผัด").
 */
export function spaceBetween(before: string, after: string): boolean {
	return !isSpaceless(lastChar(before)) && !isSpaceless(firstChar(after));
}

/** Whether `before + after` would put a grapheme cluster's boundary between them. */
function clusterBoundary(before: string, after: string): boolean {
	const last = [...graphemes.segment(before)].at(-1)?.segment ?? "";
	const first = [...graphemes.segment(last + after)][0]?.segment ?? "";
	return first.length <= last.length;
}

/**
 * Caption words (trimmed, in time order) as tokens: joined where Whisper cut a character cluster or
 * left CJK punctuation alone, with where spaces go and where lines may break.
 */
export function captionTokens(input: Word[]): Token[] {
	const merged = mergeTokens(input);
	// Word boundaries of the whole text as drawn (offsets where a segment starts).
	const offsets: number[] = [];
	let text = "";
	merged.forEach((w, i) => {
		if (i > 0 && spaceBetween(merged[i - 1]!.word, w.word)) text += " ";
		offsets.push(text.length);
		text += w.word;
	});
	const boundaries = new Set([...words.segment(text)].map((segment) => segment.index));
	return merged.map((w, i) => {
		const prev = merged[i - 1];
		const spaceBefore = prev !== undefined && spaceBetween(prev.word, w.word);
		const breakBefore =
			prev === undefined ||
			spaceBefore ||
			(boundaries.has(offsets[i]!) && !NO_LINE_START.test(w.word) && !NO_LINE_END.test(prev.word));
		return { ...w, spaceBefore, breakBefore };
	});
}

/**
 * Joins a token cut inside a grapheme cluster to the one before, closing CJK/Thai punctuation to
 * the token before it, and opening CJK brackets to the token after them.
 */
function mergeTokens(input: Word[]): Word[] {
	const merged: Word[] = [];
	let open = null as Word | null;
	for (const word of input) {
		const prev = merged.at(-1);
		const spaceless = prev !== undefined && !spaceBetween(prev.word, word.word);
		const closing = PUNCTUATION_ONLY.test(word.word) && !OPENING.test(word.word) && spaceless;
		if (prev && (!clusterBoundary(prev.word, word.word) || closing)) {
			merged[merged.length - 1] = {
				word: prev.word + word.word,
				start: prev.start,
				end: Math.max(prev.end, word.end),
			};
		} else if (OPENING.test(word.word) && isSpaceless(firstChar(word.word))) {
			// 「 （ 『: drawn with the token they open.
			open = open ? { ...open, word: open.word + word.word } : word;
		} else if (open) {
			merged.push({ word: open.word + word.word, start: open.start, end: word.end });
			open = null;
		} else merged.push(word);
	}
	if (open) merged.push(open);
	return merged;
}

/** Tokens split into units: runs of tokens with no break opportunity inside. */
export function unitsOf<T extends Token>(tokens: T[]): T[][] {
	const units: T[][] = [];
	for (const token of tokens) {
		if (token.breakBefore || units.length === 0) units.push([token]);
		else units.at(-1)!.push(token);
	}
	return units;
}

/** Tokens of a line joined as the script writes them (a space only where `spaceBefore`). */
export function joinTokens(parts: string[], tokens: Pick<Token, "spaceBefore">[]): string {
	return parts.map((part, i) => (i > 0 && tokens[i]!.spaceBefore ? ` ${part}` : part)).join("");
}

/**
 * A title or sentence as tokens: split at spaces, and where a stretch has no spaces (Chinese,
 * Japanese, Thai), at its word boundaries, so it can be broken into lines.
 */
export function textTokens(text: string): Token[] {
	const out: Word[] = [];
	for (const chunk of text.split(/\s+/).filter(Boolean)) {
		if (![...chunk].some(isSpaceless)) {
			out.push({ word: chunk, start: 0, end: 0 });
			continue;
		}
		// Each word segment a token; the token rules then join what must stay together.
		for (const s of words.segment(chunk)) out.push({ word: s.segment, start: 0, end: 0 });
	}
	// Spaces come back where the text had them: between chunks that are not spaceless.
	return captionTokens(out);
}

// ---------------------------------------------------------------- direction

const STRONG_RTL = scripts(["Arabic", "Hebrew", "Syriac", "Thaana", "Nko", "Adlam", "Hanifi_Rohingya", "Mandaic"]);
const STRONG = /[\p{L}]/u;

/**
 * The direction of a paragraph, from its first strong letter (the Unicode bidi rule P2), or null
 * when it has none. Lines of an RTL page start with a right-to-left mark so that each line (a
 * paragraph to libass) reads right to left even when it opens with a number or a Latin word.
 */
export function directionOf(text: string): "rtl" | "ltr" | null {
	for (const ch of text) {
		if (STRONG_RTL.test(ch)) return "rtl";
		if (STRONG.test(ch)) return "ltr";
	}
	return null;
}

export const hasRtl = (text: string) => STRONG_RTL.test(text);

// ---------------------------------------------------------------- case

/**
 * The locale to upper-case a transcript in: Turkish (and Azerbaijani) spell i/İ and ı/I as two
 * letters. The render request's language says so; without one, their letters ı, İ, ğ give it away.
 */
export function upperLocaleOf(texts: string[], language: string | null = null): string | undefined {
	const base = language?.toLowerCase().split(/[-_]/)[0];
	if (base === "tr" || base === "az") return base;
	if (base) return base === "und" ? undefined : base;
	return texts.some((t) => /[ıİğĞ]/u.test(t)) ? "tr" : undefined;
}

/**
 * A token in upper case: Greek in Greek's rules (capitals drop their accents: "καλημέρα" →
 * "ΚΑΛΗΜΕΡΑ"), Georgian unchanged, everything else in `locale` (German ß → SS; scripts without
 * case are unchanged).
 */
export function upperCase(text: string, locale: string | undefined): string {
	if (/\p{Script=Georgian}/u.test(text)) return text;
	if (/\p{Script=Greek}/u.test(text)) return text.toLocaleUpperCase("el");
	return text.toLocaleUpperCase(locale ?? "und");
}

/** A sentence ends at a terminal mark (any script's: . ! ? … 。 ！ ？ ؟ । ။ ...), closing quotes after it allowed. */
export const endsSentence = (word: string) => /[\p{Sentence_Terminal}…][\p{Pe}\p{Pf}"'”’」』]*$/u.test(word);
