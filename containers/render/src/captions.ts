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
 *
 * Every script (captions/text.ts, captions/fonts.ts): words are joined as their script writes them
 * (no spaces in Chinese, Japanese, Thai; karaoke moves token by token), lines break only where the
 * script allows, text the look's font cannot draw is drawn in a Noto face for its script, and
 * right-to-left pages read right to left (styles use Encoding -1, libass's automatic base direction,
 * and each line of an RTL page opens with a right-to-left mark).
 */
import { CAPTION_FONTS, EMOJI_FONT, type CaptionLook, type CaptionSpec, type Word } from "@clipforge/contract";
import { captionFonts, cjkRegionOf, textWidth, type CaptionFonts, type Face } from "./captions/fonts.ts";
import {
	captionTokens,
	directionOf,
	endsSentence,
	hasRtl,
	joinTokens,
	textTokens,
	unitsOf,
	upperCase,
	upperLocaleOf,
	type Token,
} from "./captions/text.ts";
import { emojiFor } from "./emoji.ts";
import type { Layout } from "./layout.ts";

export { textWidth } from "./captions/fonts.ts";

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
		`Style: Hook,${CAPTION_FONT},${layout.hookFontSize},${COLOURS.text},${COLOURS.text},${COLOURS.hookBox},${COLOURS.hookBox},-1,0,0,0,100,100,0,0,3,${Math.round(layout.hookFontSize * 0.35)},0,8,0,0,0,-1`,
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
		`Style: ${name},${font.family},${fontSize},${text},${text},${outlineColour},${COLOURS.shadow},${bold},0,0,0,100,100,0,0,${borderStyle},${outline},0,${placement.alignment},0,0,0,-1`;
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

/** How a caption event's text is written: the look's fonts and the transcript's CJK region and case locale. */
interface TextSetup {
	fonts: CaptionFonts;
	fontSize: number;
}

/**
 * Writes an event's text: escaped, with a `\fn` (and `\fs`, and `\b1` for a face the style does
 * not draw bold) wherever the face changes, back to the look's font after. Faces are chosen per
 * line (captions/fonts.ts), so `line(text)` gives a function writing any slice of that line; one
 * writer per event, since override tags hold until the event's end.
 */
function fontWriter({ fonts, fontSize }: TextSetup): { line(text: string): (from: number, to: number) => string } {
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
const writeAll = (writer: ReturnType<typeof fontWriter>, text: string) => writer.line(text)(0, text.length);

/**
 * What opens a line: on a page that reads right to left, a right-to-left mark before a line whose
 * first strong letter is left-to-right (libass takes each line's direction from that letter), and
 * the other way round; nothing otherwise.
 */
function lineOpener(page: string, line: string): string {
	if (!hasRtl(page)) return "";
	const direction = directionOf(page);
	if (directionOf(line) === direction) return "";
	return direction === "rtl" ? "\u200F" : "\u200E";
}

/**
 * A line of tokens written with `decorate(i, written)` around each token (colour or alpha tags),
 * tokens joined as their script writes them.
 */
function writeLine(
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

/** The clip's words as tokens (upper-cased where the look says), and the fonts to write them in. */
function prepareWords(
	words: Word[],
	style: CaptionStyle,
	duration: number,
	language: string | null = null,
): { tokens: Token[]; setup: TextSetup } {
	const cleaned = cleanWords(words, duration);
	const texts = cleaned.map((w) => w.word);
	const locale = upperLocaleOf(texts, language);
	const upper = style.look.uppercase;
	const tokens = captionTokens(upper ? cleaned.map((w) => ({ ...w, word: upperCase(w.word, locale) })) : cleaned);
	const fonts = captionFonts(style.look.font, cjkRegionOf(texts));
	return { tokens, setup: { fonts, fontSize: style.placement.fontSize } };
}

function captionEvents(spec: CaptionSpec, style: CaptionStyle, duration: number): string[] {
	const { look, placement } = style;
	const { tokens, setup } = prepareWords(spec.words, style, duration, spec.language ?? null);
	const at = `{\\an${placement.alignment}\\pos(${placement.x},${placement.y})}`;
	const pop = "{\\fscx125\\fscy125\\t(0,100,\\fscx100\\fscy100)}";
	const events: string[] = [];
	if (look.animation === "word") return wordEvents(tokens, setup, at + pop);
	const pages = pagesOf(
		tokens,
		{ ...placement, fonts: setup.fonts },
		look.maxLines,
		look.maxWordsPerPage ?? Infinity,
		look.maxWordsPerLine ?? Infinity,
	);
	for (const page of pages) {
		const first = page.words[0]!;
		const last = page.words.at(-1)!;
		if (look.accentBar) events.push(accentBarEvent(page, style, setup, first.start, last.end));
		if (look.emoji) {
			const accent = page.words.find((w) => emojiFor(w.word));
			if (accent) events.push(emojiEvent(emojiFor(accent.word)!, page, style, setup, accent.start, last.end));
		}
		if (look.animation === "page") {
			events.push(
				dialogue(
					first.start,
					last.end,
					"Caption",
					at + (look.pop ? pop : "") + pageText(page, look, setup, -1),
				),
			);
			continue;
		}
		page.words.forEach((word, i) => {
			const end = i + 1 < page.words.length ? page.words[i + 1]!.start : word.end;
			if (look.animation === "karaoke") {
				events.push(dialogue(word.start, end, "Caption", at + pageText(page, look, setup, i)));
				return;
			}
			// highlight-box: the page as plain text, and above it the box layer showing only word i.
			events.push(dialogue(word.start, end, "Caption", at + pageText(page, look, setup, -1)));
			events.push(dialogue(word.start, end, "CaptionBox", at + boxLayerText(page, setup, i), 1));
		});
	}
	return events;
}

/** One word at a time: a unit (a word of a CJK or Thai text is its tokens up to a word boundary). */
function wordEvents(tokens: Token[], setup: TextSetup, tags: string): string[] {
	const units = unitsOf(tokens).map((unit) => ({
		word: joinTokens(
			unit.map((t) => t.word),
			unit,
		),
		start: unit[0]!.start,
		end: unit.at(-1)!.end,
	}));
	return units.map((word, i) =>
		dialogue(word.start, holdUntil(word, units[i + 1]), "Caption", tags + writeAll(fontWriter(setup), word.word)),
	);
}

interface Page {
	/** The page's tokens (words of spaced scripts; Whisper's tokens of CJK and Thai). */
	words: Token[];
	/** Index of the first token of each line. */
	lineStarts: number[];
}

const linesOf = <T>(page: Page, parts: T[]): T[][] =>
	page.lineStarts.map((start, line) => parts.slice(start, page.lineStarts[line + 1] ?? parts.length));

const pageString = (page: Page) =>
	joinTokens(
		page.words.map((w) => w.word),
		page.words,
	);

/**
 * The page's lines joined by `\N`, with token `highlight` (or none, -1) in the highlight colour.
 * Tokens are joined as their script writes them (a space only where one belongs).
 */
function pageText(page: Page, look: CaptionLook, setup: TextSetup, highlight: number): string {
	const text = overrideColour(assColour(look.textColor));
	const accent = overrideColour(assColour(look.highlightColor));
	const writer = fontWriter(setup);
	const whole = pageString(page);
	let index = 0;
	return linesOf(page, page.words)
		.map((line, l) => {
			const opener = lineOpener(whole, pageString({ words: line, lineStarts: [0] }));
			const joined = writeLine(writer, line, opener, (_, written) =>
				index++ === highlight ? `{\\1c${accent}}${written}{\\1c${text}}` : written,
			);
			return look.alternateLineColors && l % 2 === 1 ? `{\\1c${accent}}${joined}{\\1c${text}}` : joined;
		})
		.join("\\N");
}

/** The box layer of highlight-box: every glyph and box transparent but token `index`'s. */
function boxLayerText(page: Page, setup: TextSetup, highlight: number): string {
	const hidden = "{\\1a&HFF&\\3a&HFF&}";
	const shown = "{\\1a&H00&\\3a&H00&}";
	const writer = fontWriter(setup);
	const whole = pageString(page);
	let index = 0;
	return (
		hidden +
		linesOf(page, page.words)
			.map((line) =>
				writeLine(
					writer,
					line,
					lineOpener(whole, pageString({ words: line, lineStarts: [0] })),
					(_, written) => (index++ === highlight ? `${shown}${written}${hidden}` : written),
				),
			)
			.join("\\N")
	);
}

/**
 * Height of a page's block in pixels (its lines, plus the box padding when boxed). A line drawn
 * partly in a fallback face is as tall as that face's size (libass: its ascent + descent).
 */
function blockHeight(page: Page, style: CaptionStyle, setup: TextSetup): number {
	const { fontSize } = style.placement;
	const lines = linesOf(page, page.words).map((line) =>
		Math.max(
			fontSize,
			...setup.fonts
				.runs(pageString({ words: line, lineStarts: [0] }))
				.flatMap((r) => (r.face ? [setup.fonts.sizeFor(r.face, fontSize)] : [])),
		),
	);
	return Math.round(
		lines.reduce((sum, size) => sum + size * LINE_HEIGHT, 0) + (style.look.box ? 2 * boxPadding(fontSize) : 0),
	);
}

/** The page's keyword emoji, centred above the block (above its left edge for lower thirds), popping in. */
function emojiEvent(
	emoji: string,
	page: Page,
	style: CaptionStyle,
	setup: TextSetup,
	start: number,
	end: number,
): string {
	const { placement, look } = style;
	const size = Math.round(placement.fontSize * 1.3);
	const bottom = Math.round(placement.y - blockHeight(page, style, setup) / 2 - placement.fontSize * 0.15);
	const anchor =
		placement.alignment === 4 ? `\\an1\\pos(${placement.x},${bottom})` : `\\an2\\pos(${placement.x},${bottom})`;
	const tags = `{${anchor}\\fn${EMOJI_FONT.family}\\fs${size}\\b0\\1c${overrideColour(assColour(look.highlightColor))}\\3c${overrideColour(assColour(look.outlineColor))}\\bord${Math.max(2, Math.round(size * 0.06))}\\fscx125\\fscy125\\t(0,120,\\fscx100\\fscy100)}`;
	return dialogue(start, end, "Caption", tags + emoji, 2);
}

/** A bar of the highlight colour just left of the block, as tall as it (lower thirds). */
function accentBarEvent(page: Page, style: CaptionStyle, setup: TextSetup, start: number, end: number): string {
	const { placement, look } = style;
	const width = Math.max(4, Math.round(placement.fontSize * 0.12));
	const height = blockHeight(page, style, setup);
	const x =
		placement.x - (look.box ? boxPadding(placement.fontSize) : 0) - Math.round(placement.fontSize * 0.2) - width;
	const tags = `{\\an4\\pos(${x},${placement.y})\\bord0\\shad0\\1a&H00&\\1c${overrideColour(assColour(look.highlightColor))}\\p1}`;
	return dialogue(start, end, "Caption", `${tags}m 0 0 l ${width} 0 l ${width} ${height} l 0 ${height}{\\p0}`);
}

/**
 * Line-breaking metrics: the font size, the widest a line may be, and the look's fonts (or, without
 * them, DejaVu Sans Bold's estimate times the font's width factor).
 */
type Metrics = Pick<CaptionPlacement, "fontSize" | "maxLineWidth"> & { widthFactor?: number; fonts?: CaptionFonts };

/**
 * Groups words into pages: a new page after a sentence end or a pause, or when the next word would
 * need more than `maxLines` lines (broken greedily by width, and after `maxWordsPerLine` words) or
 * `maxWords` words. A "word" is a unit of tokens between two break opportunities (a word of a
 * spaced script; in Chinese, Japanese and Thai the tokens up to a word boundary), and a unit wider
 * than a line is split between its tokens.
 */
export function pagesOf(
	words: Word[],
	metrics: Metrics,
	maxLines: number,
	maxWords: number,
	maxWordsPerLine = Infinity,
): Page[] {
	const tokens = words.every((w) => "breakBefore" in w) ? (words as Token[]) : captionTokens(words);
	const { widthOf, space } = measurer(metrics);
	const units = pageUnits(tokens, widthOf, metrics.maxLineWidth);
	const pages: Page[] = [];
	let line = { width: 0, units: 0 };
	let unitsOnPage = 0;
	for (const [u, unit] of units.entries()) {
		const page = pages.at(-1);
		const previous = units[u - 1]?.at(-1);
		const first = unit[0]!;
		const width = widthOf(unit);
		const gap = first.spaceBefore ? space : 0;
		const breaks =
			!page ||
			!previous ||
			endsSentence(previous.word) ||
			first.start - previous.end >= PAUSE_BREAK_SECONDS ||
			unitsOnPage >= maxWords;
		if (page && !breaks && line.width + gap + width <= metrics.maxLineWidth && line.units < maxWordsPerLine) {
			line = { width: line.width + gap + width, units: line.units + 1 };
		} else if (page && !breaks && page.lineStarts.length < maxLines) {
			page.lineStarts.push(page.words.length);
			line = { width, units: 1 };
		} else {
			pages.push({ words: [], lineStarts: [0] });
			line = { width, units: 1 };
			unitsOnPage = 0;
		}
		pages.at(-1)!.words.push(...unit);
		unitsOnPage++;
	}
	return pages;
}

/** How wide a unit of tokens is, and a space (the look's fonts, or DejaVu Sans Bold's estimate × width factor). */
function measurer(metrics: Metrics): { widthOf: (unit: Token[]) => number; space: number } {
	const factor = metrics.widthFactor ?? 1;
	const measure = (text: string) =>
		metrics.fonts ? metrics.fonts.width(text, metrics.fontSize) : textWidth(text, metrics.fontSize) * factor;
	const widthOf = (unit: Token[]) =>
		measure(
			joinTokens(
				unit.map((t) => t.word),
				unit,
			),
		);
	return { widthOf, space: measure(" ") };
}

/**
 * Tokens grouped into units (what page and line limits count): a new unit at a break opportunity,
 * after a sentence end or a pause, and where a unit would be wider than a line (split between tokens).
 */
function pageUnits(tokens: Token[], widthOf: (unit: Token[]) => number, maxLineWidth: number): Token[][] {
	const units: Token[][] = [];
	for (const [i, token] of tokens.entries()) {
		const previous = tokens[i - 1];
		const starts =
			!previous ||
			token.breakBefore ||
			endsSentence(previous.word) ||
			token.start - previous.end >= PAUSE_BREAK_SECONDS ||
			widthOf([...units.at(-1)!, token]) > maxLineWidth;
		if (starts) units.push([token]);
		else units.at(-1)!.push(token);
	}
	return units;
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

// ---------------------------------------------------------------- hook title

function hookEvent(title: string, layout: Layout, duration: number): string {
	const setup: TextSetup = {
		fonts: captionFonts("dejavu-sans", cjkRegionOf([title])),
		fontSize: layout.hookFontSize,
	};
	const lines = breakLines(title, layout.hookFontSize, layout.maxLineWidth, setup.fonts).slice(0, 3);
	const fade = "{\\fad(150,250)}";
	const at = `{\\an8\\pos(${layout.output.width / 2},${layout.hookY})}`;
	const writer = fontWriter(setup);
	return dialogue(
		0,
		Math.min(HOOK_SECONDS, duration),
		"Hook",
		at + fade + lines.map((line) => writeAll(writer, lineOpener(title, line) + line)).join("\\N"),
	);
}

/**
 * Greedy line breaking by width, at spaces, and inside Chinese, Japanese or Thai text at word
 * boundaries; a word longer than a line gets a line of its own.
 */
export function breakLines(text: string, fontSize: number, maxWidth: number, fonts?: CaptionFonts): string[] {
	const measure = (s: string) => (fonts ? fonts.width(s, fontSize) : textWidth(s, fontSize));
	const lines: Token[][] = [];
	for (const unit of unitsOf(textTokens(text))) {
		const last = lines.at(-1);
		const joined = last ? [...last, ...unit] : unit;
		const candidate = joinTokens(
			joined.map((t) => t.word),
			joined.map((t, i) => ({ spaceBefore: i > 0 && t.spaceBefore })),
		);
		if (last !== undefined && measure(candidate) <= maxWidth) last.push(...unit);
		else lines.push([...unit]);
	}
	return lines.map((line) =>
		joinTokens(
			line.map((t) => t.word),
			line.map((t, i) => ({ spaceBefore: i > 0 && t.spaceBefore })),
		),
	);
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
