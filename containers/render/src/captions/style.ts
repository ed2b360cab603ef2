/**
 * A caption look on a layout: where the block is anchored and how big its text is (placementOf),
 * and the ASS styles that draw it (captionStyle: outline or box, the highlight-box layer). Pure.
 */
import { CAPTION_FONTS, type CaptionLook } from "@clipforge/contract";
import type { Layout } from "../framing/layout.ts";

export const CAPTION_FONT = "DejaVu Sans";
/** ASS colours are &HAABBGGRR (alpha 00 = opaque). */
export const COLOURS = {
	text: "&H00FFFFFF",
	highlight: "&H0000E6FF",
	outline: "&H00000000",
	shadow: "&H96000000",
	hookBox: "&H33141414",
};

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

export interface CaptionStyle {
	look: CaptionLook;
	placement: CaptionPlacement;
	styleLines: string[];
}

/** `#RRGGBB` as ASS's `&HAABBGGRR` with alpha `aa` (00 opaque). */
export function assColour(hex: string, alpha = 0): string {
	const [r, g, b] = [hex.slice(1, 3), hex.slice(3, 5), hex.slice(5, 7)];
	return `&H${alpha.toString(16).padStart(2, "0").toUpperCase()}${b}${g}${r}`.toUpperCase();
}

export function captionStyle(look: CaptionLook, layout: Layout): CaptionStyle {
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

export const boxPadding = (fontSize: number) => Math.round(fontSize * 0.2);
