/**
 * Words into pages and lines: a new page after a sentence end, a pause or a full page; lines broken
 * by measured width (the look's fonts), at spaces or, in Chinese, Japanese and Thai, at word
 * boundaries. Pure.
 */
import type { Word } from "@clipforge/contract";
import { textWidth, type CaptionFonts } from "./fonts.ts";
import type { CaptionPlacement } from "./style.ts";
import { captionTokens, endsSentence, joinTokens, textTokens, unitsOf, type Token } from "./text.ts";

/** Nothing is shown across a pause this long or longer: the page ends there. */
export const PAUSE_BREAK_SECONDS = 0.6;

export interface Page {
	/** The page's tokens (words of spaced scripts; Whisper's tokens of CJK and Thai). */
	words: Token[];
	/** Index of the first token of each line. */
	lineStarts: number[];
}

export const linesOf = <T>(page: Page, parts: T[]): T[][] =>
	page.lineStarts.map((start, line) => parts.slice(start, page.lineStarts[line + 1] ?? parts.length));

export const pageString = (page: Page) =>
	joinTokens(
		page.words.map((w) => w.word),
		page.words,
	);

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
