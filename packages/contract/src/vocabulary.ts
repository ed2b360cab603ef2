/**
 * The words both sides of the render boundary use, as schemas: frame shapes, caption styles, timed
 * words and segments, audio signals and the built-in backgrounds. The plain lists are in words.ts.
 */
import { z } from "zod";
import {
	ASPECT_RATIOS,
	BUILTIN_BACKGROUNDS,
	CAPTION_ANIMATIONS,
	CAPTION_FONT_IDS,
	CAPTION_POSITIONS,
	CAPTION_STYLES,
	HEX_COLOR,
	type BuiltinBackgroundId as BackgroundId,
	type CaptionLookData,
	type HexColor,
} from "./words.ts";

export * from "./words.ts";

export const AspectRatio = z.enum(ASPECT_RATIOS);
export type AspectRatio = z.infer<typeof AspectRatio>;
export const CaptionStyle = z.enum(CAPTION_STYLES);
export type CaptionStyle = z.infer<typeof CaptionStyle>;
export const HexColorSchema = z
	.string()
	.regex(HEX_COLOR, "must be a colour as #RRGGBB")
	.transform((c) => c.toUpperCase() as HexColor);
export const CaptionFontId = z.enum(CAPTION_FONT_IDS);
export type CaptionFontId = z.infer<typeof CaptionFontId>;
export const CaptionPositionSchema = z.enum(CAPTION_POSITIONS);

/** A caption look, complete (see looks.ts): what the tier draws. */
export const CaptionLook = z.strictObject({
	animation: z.enum(CAPTION_ANIMATIONS),
	font: CaptionFontId,
	fontScale: z.number().min(0.3).max(2.5),
	uppercase: z.boolean(),
	textColor: HexColorSchema,
	highlightColor: HexColorSchema,
	outlineColor: HexColorSchema,
	outline: z.number().min(0).max(0.3),
	box: z.strictObject({ color: HexColorSchema, opacity: z.number().min(0).max(1) }).nullable(),
	position: CaptionPositionSchema,
	maxLines: z.number().int().min(1).max(4),
	maxWordsPerPage: z.number().int().min(1).max(40).nullable(),
	maxWordsPerLine: z.number().int().min(1).max(20).nullable(),
	alternateLineColors: z.boolean(),
	pop: z.boolean(),
	emoji: z.boolean(),
	accentBar: z.boolean(),
}) satisfies z.ZodType<CaptionLookData, unknown>;
export type CaptionLook = CaptionLookData;

export const BuiltinBackgroundId = z.enum(BUILTIN_BACKGROUNDS.map((b) => b.id) as [BackgroundId, ...BackgroundId[]]);
export type BuiltinBackgroundId = BackgroundId;

export const Word = z.object({ word: z.string(), start: z.number(), end: z.number() });
export type Word = z.infer<typeof Word>;

/** One recognised utterance: the local engine splits on pauses, Whisper on its own segments. */
export const Segment = z.object({
	start: z.number(),
	end: z.number(),
	text: z.string(),
	words: z.array(Word),
});
export type Segment = z.infer<typeof Segment>;

/** Loudness per half second of the source (ranking's energy feature), stored as JSON in R2. */
export const AudioSignals = z.object({
	intervalSeconds: z.number().positive(),
	/** Momentary loudness (EBU R128, LUFS) per interval; empty when the source has no audio. */
	loudness: z.array(z.number()),
});
export type AudioSignals = z.infer<typeof AudioSignals>;
