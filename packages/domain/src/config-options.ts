/**
 * The choices and defaults of a video's config (seed 2.3) as plain constants: the zod schema in
 * video-config.ts, the dashboard and the CLI all read them here, so each list is spelled once.
 * No zod in this file: it is bundled into the dashboard's browser script.
 */
import { SPEAKER_LAYOUTS } from "@clipforge/contract/layouts";
import { ASPECT_RATIOS, BACKGROUND_CATEGORIES, CAPTION_PRESET_IDS, DEFAULT_BACKGROUND_CATEGORY } from "@clipforge/contract/words";

export { ASPECT_RATIOS };
/**
 * How a cropped clip frames two people: `auto` (a speaker layout when two people are steadily in
 * view, else what `enableSmartCrop` says), `follow-speaker`, `stacked`, or `single` (never a
 * speaker layout). The render tier decides per clip from its faces and audio.
 */
export const LAYOUTS = SPEAKER_LAYOUTS;
export const CLIP_TYPES = ["viral-clips", "split-clips"] as const;
export const CLIP_MODELS = ["ClipBasic", "ClipPro"] as const;
export const GENRES = ["Auto", "Podcast", "Gaming", "Education", "Entertainment"] as const;
/**
 * The preset caption looks (`captionTemplateId`), the seed's three first; a workspace's own
 * templates are `custom:<id>` (GET /api/caption-templates lists both).
 */
export const CAPTION_TEMPLATES = CAPTION_PRESET_IDS;

/** Category of every workspace upload unless it names another one. */
export const CUSTOM_BACKGROUND_CATEGORY = { id: "custom", name: "Your uploads" } as const;
/** Every category a split-screen may name: the built-in library's and the uploads'. */
export const BACKGROUND_CATEGORY_IDS: readonly string[] = [...BACKGROUND_CATEGORIES.map((c) => c.id), CUSTOM_BACKGROUND_CATEGORY.id];

/** The seed's defaults, exactly. */
export const CONFIG_DEFAULTS = {
	clipType: "viral-clips",
	clipModel: "ClipBasic",
	genre: "Auto",
	clipDurationMin: 15,
	clipDurationMax: 90,
	aspectRatio: "9:16",
	enableCaptions: false,
	enableIntroTitle: false,
	captionTemplateId: "karaoke",
	language: null,
	timeframeStart: 0,
	timeframeEnd: null,
	enableSplitScreen: false,
	splitScreenBgVideoId: null,
	splitScreenBgCategoryId: null,
	splitRatio: 50,
	enableSmartCrop: false,
	layout: "auto",
	enableWatermark: true,
	skipClipping: false,
	customPrompt: null,
	removeSilences: false,
	silenceThresholdSeconds: 0.6,
} as const;

/** The category a split-screen uses when the config names none. */
export { DEFAULT_BACKGROUND_CATEGORY };

/** Bounds the schema enforces (and the dashboard's inputs show). */
export const CLIP_SECONDS = { min: 5, max: 600 } as const;
export const SPLIT_RATIO = { min: 10, max: 90 } as const;
export const CUSTOM_PROMPT_MAX = 2000;
/** Pauses at least this long (seconds) are cut when `removeSilences` is on. */
export const SILENCE_THRESHOLD = { min: 0.3, max: 5 } as const;
