/**
 * Builds the ASS subtitle document libass burns into a clip: captions from word timings drawn in a
 * caption look (see @clipforge/contract's looks.ts), and the hook title. Pure (no I/O), so timings,
 * looks and escaping are unit-tested.
 *
 * Animations:
 * - karaoke: a page of words stays up while it is spoken; the word being spoken is in the highlight
 *   colour (one event per word, so the highlight moves exactly on the word times).
 * - highlight-box: the same pages, the spoken word on an opaque box of the highlight colour (a second
 *   layer in BorderStyle 3, whose per-glyph boxes are transparent except under that word).
 * - word: one word at a time, popping in (scale 125% → 100% in 100 ms).
 * - page: the page whole from its first word to its last (sentences, chunks), optionally popping in.
 * Looks add a box behind each line (BorderStyle 3), alternate line colours, an emoji above the page
 * for its first keyword (Symbola, monochrome), a bar at the block's edge, and a position.
 *
 * Every event starts on a word's start and ends on a word's end (or on the next word's start when
 * the pause between them is short), rounded to ASS's centiseconds: within 10 ms of the timings.
 * Nothing is shown across pauses of PAUSE_BREAK_SECONDS or more.
 */
import { CAPTION_FONTS, EMOJI_FONT, type CaptionLook, type CaptionSpec, type Word } from "@clipforge/contract";
import { emojiFor } from "./emoji.ts";
import type { Layout } from "./layout.ts";

export const CAPTION_FONT = "DejaVu Sans";
/** ASS colours are &HAABBGGRR (alpha 00 = opaque). */
export const COLOURS = {
	text: "&H00FFFFFF",
	highlight: "&H0000E6FF",
	outline: "&H00000000",
	shadow: "&H96000000",
	hookBox: "&H33141414",
};
export const PAUSE_BREAK_SECONDS = 0.6;
export const HOOK_SECONDS = 3;
/** Line height as a multiple of the font size (libass's ascender + descender for these fonts, rounded up). */
const LINE_HEIGHT = 1.2;

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
	const style = input.captions ? captionStyle(input.captions.look, layout) : null;
	if (input.captions && style) events.push(...captionEvents(input.captions, style, input.duration));
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
		...(style?.styleLines ?? []),
		// BorderStyle 3: an opaque box (OutlineColour) behind the title, Outline = its padding.
		`Style: Hook,${CAPTION_FONT},${layout.hookFontSize},${COLOURS.text},${COLOURS.text},${COLOURS.hookBox},${COLOURS.hookBox},-1,0,0,0,100,100,0,0,3,${Math.round(layout.hookFontSize * 0.35)},0,8,0,0,0,1`,
		"",
		"[Events]",
		"Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text",
		...events,
		"",
	].join("\n");
}

// ---------------------------------------------------------------- a look on a layout

/** Where and how big a look's captions are on this frame. */
export interface CaptionPlacement {
	/** Anchor: the block's centre (`\an5`) or, for lower thirds, its left edge's middle (`\an4`). */
	x: number;
	y: number;
	alignment: 4 | 5;
	fontSize: number;
	maxLineWidth: number;
	/** Estimated width multiplier of the look's font against DejaVu Sans Bold. */
	widthFactor: number;
}

/**
 * The anchor of the caption block for a look's position. `bottom` is the layout's safe area (on the
 * seam in split-screen); `top` sits below the hook title's first lines; `lower-third` is left-aligned
 * inside the lower third, narrower on 9:16 so lines stay clear of the apps' right-hand buttons.
 */
export function placementOf(look: CaptionLook, layout: Layout): CaptionPlacement {
	const { width, height } = layout.output;
	const portrait = height > width;
	const split = layout.background !== null;
	const frame = split ? layout.main.height : height;
	const font = CAPTION_FONTS.find((f) => f.id === look.font) ?? CAPTION_FONTS[0];
	const common = { fontSize: Math.round(layout.fontSize * look.fontScale), widthFactor: font.widthFactor };
	switch (look.position) {
		case "bottom":
			return { ...common, x: width / 2, y: layout.captionY, alignment: 5, maxLineWidth: layout.maxLineWidth };
		case "middle":
			return {
				...common,
				x: width / 2,
				y: Math.round(frame * 0.5),
				alignment: 5,
				maxLineWidth: layout.maxLineWidth,
			};
		case "top":
			return {
				...common,
				x: width / 2,
				y: Math.round(frame * (portrait ? 0.27 : 0.22)),
				alignment: 5,
				maxLineWidth: layout.maxLineWidth,
			};
		case "lower-third":
			return {
				...common,
				x: Math.round(width * 0.07),
				y: split ? Math.round(frame * 0.82) : Math.round(height * (portrait ? 0.74 : 0.8)),
				alignment: 4,
				maxLineWidth: Math.round(width * (portrait ? 0.72 : 0.6)),
			};
	}
}

interface CaptionStyle {
	look: CaptionLook;
	placement: CaptionPlacement;
	styleLines: string[];
}

/** `#RRGGBB` as ASS's `&HAABBGGRR` with alpha `aa` (00 opaque). */
export function assColour(hex: string, alpha = 0): string {
	const [r, g, b] = [hex.slice(1, 3), hex.slice(3, 5), hex.slice(5, 7)];
	return `&H${alpha.toString(16).padStart(2, "0").toUpperCase()}${b}${g}${r}`.toUpperCase();
}

function captionStyle(look: CaptionLook, layout: Layout): CaptionStyle {
	const placement = placementOf(look, layout);
	const font = CAPTION_FONTS.find((f) => f.id === look.font) ?? CAPTION_FONTS[0];
	const { fontSize } = placement;
	const text = assColour(look.textColor);
	const bold = font.bold ? -1 : 0;
	const style = (name: string, outlineColour: string, borderStyle: 1 | 3, outline: number) =>
		`Style: ${name},${font.family},${fontSize},${text},${text},${outlineColour},${COLOURS.shadow},${bold},0,0,0,100,100,0,0,${borderStyle},${outline},0,${placement.alignment},0,0,0,1`;
	const lines = look.box
		? // A box behind each line: BorderStyle 3 draws OutlineColour as an opaque box, Outline = its padding.
			[
				style(
					"Caption",
					assColour(look.box.color, Math.round((1 - look.box.opacity) * 255)),
					3,
					boxPadding(fontSize),
				),
			]
		: // A bold face with an outline: legible on any footage. No shadow layer: ffmpeg blends every libass
			// bitmap over its whole box on every frame, and a shadow costs a third of that.
			[style("Caption", assColour(look.outlineColor), 1, Math.round(fontSize * look.outline))];
	if (look.animation === "highlight-box")
		lines.push(style("CaptionBox", assColour(look.highlightColor), 3, boxPadding(fontSize)));
	return { look, placement, styleLines: lines };
}

const boxPadding = (fontSize: number) => Math.round(fontSize * 0.2);

// ---------------------------------------------------------------- captions

function captionEvents(spec: CaptionSpec, style: CaptionStyle, duration: number): string[] {
	const { look, placement } = style;
	const words = cleanWords(spec.words, duration).map((w) =>
		look.uppercase ? { ...w, word: w.word.toLocaleUpperCase() } : w,
	);
	const at = `{\\an${placement.alignment}\\pos(${placement.x},${placement.y})}`;
	const pop = "{\\fscx125\\fscy125\\t(0,100,\\fscx100\\fscy100)}";
	const events: string[] = [];
	if (look.animation === "word") {
		words.forEach((word, i) => {
			const end = holdUntil(word, words[i + 1]);
			events.push(dialogue(word.start, end, "Caption", at + pop + escapeAssText(word.word)));
		});
		return events;
	}
	const pages = pagesOf(
		words,
		placement,
		look.maxLines,
		look.maxWordsPerPage ?? Infinity,
		look.maxWordsPerLine ?? Infinity,
	);
	for (const page of pages) {
		const first = page.words[0]!;
		const last = page.words.at(-1)!;
		if (look.accentBar) events.push(accentBarEvent(page, style, first.start, last.end));
		if (look.emoji) {
			const accent = page.words.find((w) => emojiFor(w.word));
			if (accent) events.push(emojiEvent(emojiFor(accent.word)!, page, style, accent.start, last.end));
		}
		if (look.animation === "page") {
			events.push(
				dialogue(first.start, last.end, "Caption", at + (look.pop ? pop : "") + pageText(page, look, -1)),
			);
			continue;
		}
		page.words.forEach((word, i) => {
			const end = i + 1 < page.words.length ? page.words[i + 1]!.start : word.end;
			if (look.animation === "karaoke") {
				events.push(dialogue(word.start, end, "Caption", at + pageText(page, look, i)));
				return;
			}
			// highlight-box: the page as plain text, and above it the box layer showing only word i.
			events.push(dialogue(word.start, end, "Caption", at + pageText(page, look, -1)));
			events.push(dialogue(word.start, end, "CaptionBox", at + boxLayerText(page, i), 1));
		});
	}
	return events;
}

interface Page {
	words: Word[];
	/** Index of the first word of each line. */
	lineStarts: number[];
}

const linesOf = <T>(page: Page, parts: T[]): T[][] =>
	page.lineStarts.map((start, line) => parts.slice(start, page.lineStarts[line + 1] ?? parts.length));

/** The page's lines joined by `\N`, with word `highlight` (or none, -1) in the highlight colour. */
function pageText(page: Page, look: CaptionLook, highlight: number): string {
	const text = overrideColour(assColour(look.textColor));
	const accent = overrideColour(assColour(look.highlightColor));
	const parts = page.words.map((w, i) => {
		const escaped = escapeAssText(w.word);
		return i === highlight ? `{\\1c${accent}}${escaped}{\\1c${text}}` : escaped;
	});
	return linesOf(page, parts)
		.map((line, i) =>
			look.alternateLineColors && i % 2 === 1 ? `{\\1c${accent}}${line.join(" ")}{\\1c${text}}` : line.join(" "),
		)
		.join("\\N");
}

/** The box layer of highlight-box: every glyph and box transparent but word `index`'s. */
function boxLayerText(page: Page, index: number): string {
	const hidden = "{\\1a&HFF&\\3a&HFF&}";
	const shown = "{\\1a&H00&\\3a&H00&}";
	const parts = page.words.map((w, i) =>
		i === index ? `${shown}${escapeAssText(w.word)}${hidden}` : escapeAssText(w.word),
	);
	return (
		hidden +
		linesOf(page, parts)
			.map((line) => line.join(" "))
			.join("\\N")
	);
}

/** Height of a page's block in pixels (its lines, plus the box padding when boxed). */
function blockHeight(page: Page, style: CaptionStyle): number {
	const { fontSize } = style.placement;
	return Math.round(
		page.lineStarts.length * fontSize * LINE_HEIGHT + (style.look.box ? 2 * boxPadding(fontSize) : 0),
	);
}

/** The page's keyword emoji, centred above the block (above its left edge for lower thirds), popping in. */
function emojiEvent(emoji: string, page: Page, style: CaptionStyle, start: number, end: number): string {
	const { placement, look } = style;
	const size = Math.round(placement.fontSize * 1.3);
	const bottom = Math.round(placement.y - blockHeight(page, style) / 2 - placement.fontSize * 0.15);
	const anchor =
		placement.alignment === 4 ? `\\an1\\pos(${placement.x},${bottom})` : `\\an2\\pos(${placement.x},${bottom})`;
	const tags = `{${anchor}\\fn${EMOJI_FONT.family}\\fs${size}\\b0\\1c${overrideColour(assColour(look.highlightColor))}\\3c${overrideColour(assColour(look.outlineColor))}\\bord${Math.max(2, Math.round(size * 0.06))}\\fscx125\\fscy125\\t(0,120,\\fscx100\\fscy100)}`;
	return dialogue(start, end, "Caption", tags + emoji, 2);
}

/** A bar of the highlight colour just left of the block, as tall as it (lower thirds). */
function accentBarEvent(page: Page, style: CaptionStyle, start: number, end: number): string {
	const { placement, look } = style;
	const width = Math.max(4, Math.round(placement.fontSize * 0.12));
	const height = blockHeight(page, style);
	const x =
		placement.x - (look.box ? boxPadding(placement.fontSize) : 0) - Math.round(placement.fontSize * 0.2) - width;
	const tags = `{\\an4\\pos(${x},${placement.y})\\bord0\\shad0\\1a&H00&\\1c${overrideColour(assColour(look.highlightColor))}\\p1}`;
	return dialogue(start, end, "Caption", `${tags}m 0 0 l ${width} 0 l ${width} ${height} l 0 ${height}{\\p0}`);
}

/** Line-breaking metrics: the font size, the widest a line may be, and the font's width factor. */
type Metrics = Pick<CaptionPlacement, "fontSize" | "maxLineWidth"> & { widthFactor?: number };

/**
 * Groups words into pages: a new page after a sentence end or a pause, or when the next word would
 * need more than `maxLines` lines (broken greedily by estimated width, and after `maxWordsPerLine`
 * words) or `maxWords` words.
 */
export function pagesOf(
	words: Word[],
	metrics: Metrics,
	maxLines: number,
	maxWords: number,
	maxWordsPerLine = Infinity,
): Page[] {
	const pages: Page[] = [];
	let page: Page | null = null;
	let lineWidth = 0;
	const factor = metrics.widthFactor ?? 1;
	const space = textWidth(" ", metrics.fontSize) * factor;
	for (const [i, word] of words.entries()) {
		const previous = words[i - 1];
		const width = textWidth(word.word, metrics.fontSize) * factor;
		const breaks =
			!page ||
			!previous ||
			endsSentence(previous.word) ||
			word.start - previous.end >= PAUSE_BREAK_SECONDS ||
			page.words.length >= maxWords;
		const lineWords = page ? page.words.length - page.lineStarts.at(-1)! : 0;
		if (page && !breaks && lineWidth + space + width <= metrics.maxLineWidth && lineWords < maxWordsPerLine) {
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
		if (last !== undefined && textWidth(`${last} ${word}`, fontSize) <= maxWidth)
			lines[lines.length - 1] = `${last} ${word}`;
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

function dialogue(start: number, end: number, style: string, text: string, layer = 0): string {
	return `Dialogue: ${layer},${assTime(start)},${assTime(Math.max(end, start + 0.01))},${style},,0,0,0,,${text}`;
}

/** `H:MM:SS.cc`, rounded to the nearest centisecond. */
export function assTime(seconds: number): string {
	const cs = Math.round(Math.max(0, seconds) * 100);
	const h = Math.floor(cs / 360_000);
	const m = Math.floor((cs % 360_000) / 6000);
	const s = Math.floor((cs % 6000) / 100);
	return `${h}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}.${String(cs % 100).padStart(2, "0")}`;
}
