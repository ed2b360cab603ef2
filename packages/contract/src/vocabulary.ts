/**
 * The words both sides of the render boundary use, as schemas: frame shapes, caption styles, timed
 * words and segments, audio signals and the built-in backgrounds. The plain lists are in words.ts.
 */
import { z } from "zod";
import { ASPECT_RATIOS, BUILTIN_BACKGROUNDS, CAPTION_STYLES, type BuiltinBackgroundId as BackgroundId } from "./words.ts";

export * from "./words.ts";

export const AspectRatio = z.enum(ASPECT_RATIOS);
export type AspectRatio = z.infer<typeof AspectRatio>;
export const CaptionStyle = z.enum(CAPTION_STYLES);
export type CaptionStyle = z.infer<typeof CaptionStyle>;
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
