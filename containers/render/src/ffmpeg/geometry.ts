/**
 * The shapes the argument builders place pictures by: a box of the output frame, a rectangle of the
 * source in pixels, and the boxes of one clip's frame (framing/layout.ts decides them; captions and
 * the filtergraph read them).
 */

export interface Box {
	width: number;
	height: number;
}

/** A crop rectangle in source pixels (even numbers). */
export interface PixelRect {
	x: number;
	y: number;
	width: number;
	height: number;
}

/** The boxes a clip's filtergraph fills (framing/layout.ts `Layout` has them and more). */
export interface FrameBoxes {
	output: Box;
	/** The box the source video fills (the whole frame, or the top part in split-screen). */
	main: Box;
	/** The bottom box of split-screen, null otherwise. */
	background: Box | null;
	/** The stacked speaker layout's top and bottom boxes (one person each), null otherwise. */
	halves: [Box, Box] | null;
}
