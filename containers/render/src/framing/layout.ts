/**
 * Where things go on the output frame, per aspect ratio and split-screen ratio. One place decides
 * the geometry so the filtergraph, the captions and the tests agree on it.
 */
import { OUTPUT_SIZE, type AspectRatio } from "@clipforge/contract";
import type { FrameBoxes } from "../ffmpeg/geometry.ts";

/**
 * The frame's boxes (ffmpeg/geometry.ts: the output, the source's box, split-screen's, stacked
 * halves) and what is drawn where.
 */
export interface Layout extends FrameBoxes {
	/** Vertical centre of the caption block. */
	captionY: number;
	/** Top of the hook title's box. */
	hookY: number;
	fontSize: number;
	hookFontSize: number;
	/** Widest a caption or title line may be (libass is told not to wrap; we break lines ourselves). */
	maxLineWidth: number;
}

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/**
 * Safe areas: short-form apps draw their buttons over the bottom ~20% and the right edge of a
 * 9:16 frame, so captions sit at ~70% height there; wide frames keep them low like subtitles.
 */
const CAPTION_Y: Record<AspectRatio, number> = { "9:16": 0.7, "1:1": 0.8, "16:9": 0.84 };
const FONT_SIZE: Record<AspectRatio, number> = { "9:16": 76, "1:1": 66, "16:9": 60 };

/**
 * @param stacked the stacked speaker layout (two people, one above the other); split-screen wins
 * over it, since both want the bottom of the frame.
 */
export function layoutFor(aspectRatio: AspectRatio, splitRatio: number | null, stacked = false): Layout {
	const output = OUTPUT_SIZE[aspectRatio];
	const fontSize = FONT_SIZE[aspectRatio];
	const common = {
		output,
		fontSize,
		hookFontSize: Math.round(fontSize * 0.9),
		maxLineWidth: Math.round(output.width * 0.86),
		halves: null,
	};
	if (splitRatio === null && stacked) {
		const top = even(output.height / 2);
		return {
			...common,
			main: output,
			background: null,
			halves: [
				{ width: output.width, height: top },
				{ width: output.width, height: output.height - top },
			],
			// On the seam, as in split-screen: below the top face's chin, above the bottom face's hair.
			captionY: top,
			hookY: Math.round(output.height * 0.1),
		};
	}
	if (splitRatio === null) {
		return {
			...common,
			main: output,
			background: null,
			captionY: Math.round(output.height * CAPTION_Y[aspectRatio]),
			hookY: Math.round(output.height * 0.1),
		};
	}
	const mainHeight = Math.min(output.height - 2, even((output.height * splitRatio) / 100));
	return {
		...common,
		main: { width: output.width, height: mainHeight },
		background: { width: output.width, height: output.height - mainHeight },
		// On the seam: it reads as part of both halves and covers neither speaker nor background.
		captionY: mainHeight,
		hookY: Math.round(Math.min(mainHeight * 0.12, output.height * 0.1)),
	};
}
