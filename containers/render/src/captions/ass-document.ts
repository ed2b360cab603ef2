/**
 * Builds the ASS subtitle document libass burns into a clip: captions from word timings drawn in a
 * caption look (see @clipforge/contract's looks.ts; events.ts draws them), and the hook title.
 * Pure (no I/O), so timings, looks and escaping are unit-tested.
 *
 * Every script (text.ts, fonts.ts): words are joined as their script writes them (no spaces in
 * Chinese, Japanese, Thai; karaoke moves token by token), lines break only where the script allows,
 * text the look's font cannot draw is drawn in a Noto face for its script, and right-to-left pages
 * read right to left (styles use Encoding -1, libass's automatic base direction, and each line of
 * an RTL page opens with a right-to-left mark).
 */
import type { CaptionSpec } from "@clipforge/contract";
import type { Layout } from "../framing/layout.ts";
import { dialogue } from "./ass-syntax.ts";
import { captionEvents } from "./events.ts";
import { captionFonts, cjkRegionOf } from "./fonts.ts";
import { fontWriter, lineOpener, writeAll, type TextSetup } from "./font-writer.ts";
import { breakLines } from "./pages.ts";
import { CAPTION_FONT, captionStyle, COLOURS } from "./style.ts";

/** The hook title shows for this many seconds at the clip's start. */
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
