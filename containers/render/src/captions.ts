/**
 * Builds the ASS subtitle document libass burns into a clip: captions from word timings in one of
 * three styles, and the hook title. Pure (no I/O), so timings and escaping are unit-tested.
 *
 * - karaoke: a page of up to two lines stays up while it is spoken; the word being spoken is
 *   highlighted (one event per word, so the highlight moves exactly on the word times).
 * - word-by-word: one word at a time, upper case, popping in (scale 125% → 100% in 100 ms).
 * - sentence: whole sentences (split into pages of up to three lines when long).
 *
 * Every event starts on a word's start and ends on a word's end (or on the next word's start when
 * the pause between them is short), rounded to ASS's centiseconds: within 10 ms of the timings.
 * Nothing is shown across pauses of PAUSE_BREAK_SECONDS or more.
 */
import type { CaptionSpec, Word } from "@clipforge/contract";
import type { Layout } from "./layout.ts";

export const CAPTION_FONT = "DejaVu Sans";
/** ASS colours are &HAABBGGRR (alpha 00 = opaque). */
export const COLOURS = { text: "&H00FFFFFF", highlight: "&H0000E6FF", outline: "&H00000000", shadow: "&H96000000", hookBox: "&H33141414" };
export const PAUSE_BREAK_SECONDS = 0.6;
export const HOOK_SECONDS = 3;

export interface AssInput {
	layout: Layout;
	captions: CaptionSpec | null;
	hookTitle: string | null;
	/** Clip length in seconds: nothing is timed past it. */
	duration: number;
}

export function buildAssDocument(input: AssInput): string {
	const { layout } = input;
	const events: string[] = [];
	if (input.captions) events.push(...captionEvents(input.captions, layout, input.duration));
	if (input.hookTitle?.trim()) events.push(hookEvent(input.hookTitle.trim(), layout, input.duration));
	return [
		"[Script Info]",
		"ScriptType: v4.00+",
		`PlayResX: ${layout.output.width}`,
		`PlayResY: ${layout.output.height}`,
		// 2 = no automatic wrapping: lines are broken here, by estimated width.
		"WrapStyle: 2",
		"ScaledBorderAndShadow: yes",
		"",
		"[V4+ Styles]",
		"Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding",
		// Bold sans with a thick black outline: legible on any footage. No shadow layer: ffmpeg blends
		// every libass bitmap over its whole box on every frame, and a shadow costs a third of that.
		`Style: Caption,${CAPTION_FONT},${layout.fontSize},${COLOURS.text},${COLOURS.text},${COLOURS.outline},${COLOURS.shadow},-1,0,0,0,100,100,0,0,1,${Math.round(layout.fontSize * 0.1)},0,5,0,0,0,1`,
		// BorderStyle 3: an opaque box (OutlineColour) behind the title, Outline = its padding.
		`Style: Hook,${CAPTION_FONT},${layout.hookFontSize},${COLOURS.text},${COLOURS.text},${COLOURS.hookBox},${COLOURS.hookBox},-1,0,0,0,100,100,0,0,3,${Math.round(layout.hookFontSize * 0.35)},0,8,0,0,0,1`,
		"",
		"[Events]",
		"Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text",
		...events,
		"",
	].join("\n");
}

// ---------------------------------------------------------------- captions

function captionEvents(spec: CaptionSpec, layout: Layout, duration: number): string[] {
	const words = cleanWords(spec.words, duration);
	const at = `{\\an5\\pos(${layout.output.width / 2},${layout.captionY})}`;
	const events: string[] = [];
	if (spec.style === "word-by-word") {
		words.forEach((word, i) => {
			const end = holdUntil(word, words[i + 1]);
			const pop = "{\\fscx125\\fscy125\\t(0,100,\\fscx100\\fscy100)}";
			events.push(dialogue(word.start, end, "Caption", at + pop + escapeAssText(word.word.toLocaleUpperCase())));
		});
		return events;
	}
	const karaoke = spec.style === "karaoke";
	for (const page of pagesOf(words, layout, karaoke ? 2 : 3, karaoke ? 8 : Infinity)) {
		if (!karaoke) {
			events.push(dialogue(page.words[0]!.start, page.words.at(-1)!.end, "Caption", at + pageText(page, -1)));
			continue;
		}
		page.words.forEach((word, i) => {
			const end = i + 1 < page.words.length ? page.words[i + 1]!.start : word.end;
			events.push(dialogue(word.start, end, "Caption", at + pageText(page, i)));
		});
	}
	return events;
}

interface Page {
	words: Word[];
	/** Index of the first word of each line. */
	lineStarts: number[];
}

/** The page's lines joined by `\N`, with word `highlight` (or none, -1) in the highlight colour. */
function pageText(page: Page, highlight: number): string {
	const parts = page.words.map((w, i) => {
		const text = escapeAssText(w.word);
		return i === highlight ? `{\\1c${overrideColour(COLOURS.highlight)}}${text}{\\1c${overrideColour(COLOURS.text)}}` : text;
	});
	return page.lineStarts
		.map((start, line) => parts.slice(start, page.lineStarts[line + 1] ?? parts.length).join(" "))
		.join("\\N");
}

/**
 * Groups words into pages: a new page after a sentence end or a pause, or when the next word would
 * need more than `maxLines` lines (broken greedily by estimated width) or `maxWords` words.
 */
export function pagesOf(words: Word[], layout: Pick<Layout, "fontSize" | "maxLineWidth">, maxLines: number, maxWords: number): Page[] {
	const pages: Page[] = [];
	let page: Page | null = null;
	let lineWidth = 0;
	const space = textWidth(" ", layout.fontSize);
	for (const [i, word] of words.entries()) {
		const previous = words[i - 1];
		const width = textWidth(word.word, layout.fontSize);
		const breaks = !page || !previous || endsSentence(previous.word) || word.start - previous.end >= PAUSE_BREAK_SECONDS || page.words.length >= maxWords;
		if (page && !breaks && lineWidth + space + width <= layout.maxLineWidth) {
			page.words.push(word);
			lineWidth += space + width;
			continue;
		}
		if (page && !breaks && page.lineStarts.length < maxLines) {
			page.lineStarts.push(page.words.length);
			page.words.push(word);
			lineWidth = width;
			continue;
		}
		page = { words: [word], lineStarts: [0] };
		pages.push(page);
		lineWidth = width;
	}
	return pages;
}

/** A short pause keeps a word up until the next one (no flicker); a long one clears the screen. */
function holdUntil(word: Word, next: Word | undefined): number {
	return next && next.start - word.end < PAUSE_BREAK_SECONDS ? next.start : word.end;
}

function cleanWords(words: Word[], duration: number): Word[] {
	return words
		.map((w) => ({ word: w.word.trim(), start: Math.max(0, w.start), end: Math.min(duration, w.end) }))
		.filter((w) => w.word.length > 0 && w.end > w.start)
		.sort((a, b) => a.start - b.start);
}

const endsSentence = (word: string) => /[.!?…。！？]["'”’)\]]*$/.test(word);

/**
 * Width of `text` in pixels, estimated from DejaVu Sans Bold's advances (em fractions by character
 * class). Errs wide, so a line never runs off the frame.
 */
export function textWidth(text: string, fontSize: number): number {
	let em = 0;
	for (const ch of text) {
		if (/\s/.test(ch)) em += 0.35;
		else if (/[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60]/u.test(ch)) em += 1.0;
		else if (/[A-Z0-9MW@%&]/.test(ch)) em += 0.78;
		else if (/[iljtf.,:;'!|]/.test(ch)) em += 0.38;
		else em += 0.66;
	}
	return em * fontSize;
}

// ---------------------------------------------------------------- hook title

function hookEvent(title: string, layout: Layout, duration: number): string {
	const lines = breakLines(title, layout.hookFontSize, layout.maxLineWidth).slice(0, 3);
	const fade = "{\\fad(150,250)}";
	const at = `{\\an8\\pos(${layout.output.width / 2},${layout.hookY})}`;
	return dialogue(0, Math.min(HOOK_SECONDS, duration), "Hook", at + fade + lines.map(escapeAssText).join("\\N"));
}

/** Greedy line breaking by estimated width; a word longer than a line gets a line of its own. */
export function breakLines(text: string, fontSize: number, maxWidth: number): string[] {
	const lines: string[] = [];
	for (const word of text.split(/\s+/).filter(Boolean)) {
		const last = lines.at(-1);
		if (last !== undefined && textWidth(`${last} ${word}`, fontSize) <= maxWidth) lines[lines.length - 1] = `${last} ${word}`;
		else lines.push(word);
	}
	return lines;
}

// ---------------------------------------------------------------- ASS syntax

/**
 * Makes any text literal inside an ASS Dialogue line. libass (0.17) reads `{…}` as override tags
 * and `\N`, `\n`, `\h` as breaks: braces get its `\{` `\}` escapes, and a word joiner (U+2060,
 * invisible) after every backslash stops it starting an escape. Line breaks become spaces (we
 * place our own), and commas are safe because Text is the last field.
 * @example escapeAssText("a {b} \\N c") // "a \\{b\\} \\\u2060N c"
 */
export function escapeAssText(text: string): string {
	return text
		.replace(/[\r\n]+/g, " ")
		.replace(/\\/g, "\\\u2060")
		.replace(/[{}]/g, (c) => `\\${c}`);
}

/** Override tags take `&HBBGGRR&` (no alpha byte). */
const overrideColour = (colour: string) => `&H${colour.slice(-6)}&`;

function dialogue(start: number, end: number, style: string, text: string): string {
	return `Dialogue: 0,${assTime(start)},${assTime(Math.max(end, start + 0.01))},${style},,0,0,0,,${text}`;
}

/** `H:MM:SS.cc`, rounded to the nearest centisecond. */
export function assTime(seconds: number): string {
	const cs = Math.round(Math.max(0, seconds) * 100);
	const h = Math.floor(cs / 360_000);
	const m = Math.floor((cs % 360_000) / 6000);
	const s = Math.floor((cs % 6000) / 100);
	return `${h}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}.${String(cs % 100).padStart(2, "0")}`;
}
