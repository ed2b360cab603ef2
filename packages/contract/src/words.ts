/**
 * The shared vocabulary as plain constants (no zod), so a browser bundle or a CLI can import the
 * lists without the schemas: `@clipforge/contract/words`. vocabulary.ts builds the schemas on them.
 */
export const ASPECT_RATIOS = ["9:16", "16:9", "1:1"] as const;
export type AspectRatio = (typeof ASPECT_RATIOS)[number];

/** Output frame size per aspect ratio (even numbers, as libx264 with yuv420p needs). */
export const OUTPUT_SIZE: Record<AspectRatio, { width: number; height: number }> = {
	"9:16": { width: 1080, height: 1920 },
	"16:9": { width: 1920, height: 1080 },
	"1:1": { width: 1080, height: 1080 },
};

/** The seed's three caption styles (each is also a preset look: see looks.ts). */
export const CAPTION_STYLES = ["karaoke", "word-by-word", "sentence"] as const;
export type CaptionStyle = (typeof CAPTION_STYLES)[number];
export * from "./looks.ts";
export * from "./template-fields.ts";
export * from "./render-options.ts";

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
