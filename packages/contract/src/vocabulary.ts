/**
 * The words both sides of the render boundary use: frame shapes, caption styles, timed words and
 * segments, audio signals and the built-in background library. Spelled once, here.
 */
import { z } from "zod";

export const ASPECT_RATIOS = ["9:16", "16:9", "1:1"] as const;
export const AspectRatio = z.enum(ASPECT_RATIOS);
export type AspectRatio = z.infer<typeof AspectRatio>;

/** Output frame size per aspect ratio (even numbers, as libx264 with yuv420p needs). */
export const OUTPUT_SIZE: Record<AspectRatio, { width: number; height: number }> = {
	"9:16": { width: 1080, height: 1920 },
	"16:9": { width: 1920, height: 1080 },
	"1:1": { width: 1080, height: 1080 },
};

export const CAPTION_STYLES = ["karaoke", "word-by-word", "sentence"] as const;
export const CaptionStyle = z.enum(CAPTION_STYLES);
export type CaptionStyle = z.infer<typeof CaptionStyle>;

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

/**
 * The built-in background library. The tier draws each one with ffmpeg's own sources (nothing is
 * downloaded); the Worker asks for it once and keeps the result in R2.
 */
export const BUILTIN_BACKGROUNDS = [
	{ id: "abstract-gradient", name: "Drifting gradient", categoryId: "abstract" },
	{ id: "abstract-sierpinski", name: "Sierpinski carpet", categoryId: "abstract" },
	{ id: "satisfying-life", name: "Game of life", categoryId: "satisfying" },
	{ id: "satisfying-mandelbrot", name: "Mandelbrot zoom", categoryId: "satisfying" },
	{ id: "retro-bars", name: "Test card", categoryId: "retro" },
	{ id: "retro-automaton", name: "Cellular automaton", categoryId: "retro" },
] as const;
export const BACKGROUND_CATEGORIES = [
	{ id: "abstract", name: "Abstract" },
	{ id: "satisfying", name: "Satisfying" },
	{ id: "retro", name: "Retro" },
] as const;
export const DEFAULT_BACKGROUND_CATEGORY = "satisfying";
export type BuiltinBackgroundId = (typeof BUILTIN_BACKGROUNDS)[number]["id"];
export const BuiltinBackgroundId = z.enum(BUILTIN_BACKGROUNDS.map((b) => b.id) as [BuiltinBackgroundId, ...BuiltinBackgroundId[]]);
