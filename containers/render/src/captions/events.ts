/**
 * The caption events of a clip: its words (cleaned, upper-cased where the look says) drawn in the
 * look's animation. Every event starts on a word's start and ends on a word's end (or on the next
 * word's start when the pause between them is short), rounded to ASS's centiseconds: within 10 ms
 * of the timings. Nothing is shown across pauses of PAUSE_BREAK_SECONDS or more. Pure.
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
 */
import { EMOJI_FONT, type CaptionLook, type CaptionSpec, type Word } from "@clipforge/contract";
import { assColour, boxPadding, type CaptionStyle } from "./style.ts";
import { dialogue, overrideColour } from "./ass-syntax.ts";
import { emojiFor } from "./emoji.ts";
import { captionFonts, cjkRegionOf } from "./fonts.ts";
import { fontWriter, lineOpener, writeAll, writeLine, type TextSetup } from "./font-writer.ts";
import { linesOf, pageString, pagesOf, PAUSE_BREAK_SECONDS, type Page } from "./pages.ts";
import { captionTokens, joinTokens, unitsOf, upperCase, upperLocaleOf, type Token } from "./text.ts";

/** Line height as a multiple of the font size (libass's ascender + descender for these fonts, rounded up). */
const LINE_HEIGHT = 1.2;

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

export function captionEvents(spec: CaptionSpec, style: CaptionStyle, duration: number): string[] {
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
