/**
 * A video's config (seed 2.3 and what came after) as one table: each option's type, bounds,
 * default, label, help and CLI flag, in the order the API lists them. Every surface is derived
 * from it: the API's zod schema and defaults (src/worker/domain/video-config.ts), the MCP tools'
 * input schema (packages/sdk/src/mcp/config-shape.ts), the CLI's flags
 * (packages/sdk/src/cli/config-flags.ts) and the dashboard's form (src/dashboard/config-fields.ts).
 * A new option is one row here, plus the code that reads it.
 * No zod in this file: it is bundled into the dashboard's browser script.
 */
import { SPEAKER_LAYOUTS, SPLIT_RATIO } from "@clipforge/contract/layouts";
import {
	ASPECT_RATIOS,
	BACKGROUND_CATEGORIES,
	CAPTION_PRESET_IDS,
	DEFAULT_BACKGROUND_CATEGORY,
	RENDER_CONFIG_OPTIONS,
} from "@clipforge/contract/words";
import type { ConfigOption, ConfigValues } from "./config-option.ts";
import { LANGUAGE_CODES, LANGUAGES } from "./languages.ts";

export { ASPECT_RATIOS, DEFAULT_BACKGROUND_CATEGORY };
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
/** A workspace's own caption template as `captionTemplateId` takes it. */
export const CUSTOM_TEMPLATE_REF = /^custom:ct_[A-Za-z0-9_-]{1,64}$/;

/** Category of every workspace upload unless it names another one. */
export const CUSTOM_BACKGROUND_CATEGORY = { id: "custom", name: "Your uploads" } as const;
/** Every category a split-screen may name: the built-in library's and the uploads'. */
export const BACKGROUND_CATEGORY_IDS: readonly string[] = [
	...BACKGROUND_CATEGORIES.map((c) => c.id),
	CUSTOM_BACKGROUND_CATEGORY.id,
];

/** Bounds the schema enforces (and the dashboard's inputs show). */
export const CLIP_SECONDS = { min: 5, max: 600 } as const;
/** The split-screen ratio's bounds are the render contract's (the tier refuses a ratio outside them). */
export { SPLIT_RATIO };
export const CUSTOM_PROMPT_MAX = 2000;
/** Pauses at least this long (seconds) are cut when `removeSilences` is on. */
export const SILENCE_THRESHOLD = { min: 0.3, max: 5 } as const;

const seconds = { type: "number", ...CLIP_SECONDS } as const;
const backgroundRef = { type: "text", minLength: 1, maxLength: 128, nullable: true } as const;

export const CONFIG_OPTIONS = {
	clipType: {
		type: "enum",
		choices: CLIP_TYPES,
		default: "viral-clips",
		label: "Clip type",
		help: "viral-clips: the best moments, ranked by score; split-clips: the whole time frame cut into consecutive parts.",
		cli: [{ flag: "--clip-type <type>" }],
		form: { group: "clips" },
	},
	clipModel: {
		type: "enum",
		choices: CLIP_MODELS,
		default: "ClipBasic",
		label: "Ranking model",
		help: "Who picks the moments: ClipBasic (fast) or ClipPro (a stronger model, two passes).",
		cli: [{ flag: "--model <model>", help: "ranker" }],
		form: { group: "clips" },
	},
	genre: {
		type: "enum",
		choices: GENRES,
		default: "Auto",
		label: "Genre",
		help: "What kind of video it is (tunes the ranking).",
		cli: [{ flag: "--genre <genre>", help: "genre" }],
		form: { group: "clips" },
	},
	clipDurationMin: {
		...seconds,
		default: 15,
		label: "Shortest clip (s)",
		help: "Shortest clip, seconds.",
		cli: [{ flag: "--min <seconds>", help: "shortest clip" }],
		form: { group: "clips" },
	},
	clipDurationMax: {
		...seconds,
		default: 90,
		label: "Longest clip (s)",
		help: "Longest clip, seconds (at least clipDurationMin).",
		cli: [{ flag: "--max <seconds>", help: "longest clip" }],
		form: { group: "clips" },
	},
	aspectRatio: {
		type: "enum",
		choices: ASPECT_RATIOS,
		default: "9:16",
		label: "Aspect ratio",
		help: "9:16 for Shorts/Reels/TikTok, 1:1 square, 16:9 landscape.",
		cli: [{ flag: "--aspect <ratio>", help: "aspect ratio" }],
		form: { group: "clips" },
	},
	enableCaptions: {
		type: "boolean",
		default: false,
		label: "Captions",
		help: "Burn captions into the clips (in the look of captionTemplateId).",
		// Set by captionTemplateId's flags: --captions <style> / --caption-template <id> turn it on, --no-captions off.
		cli: [],
		form: { group: "look" },
	},
	enableIntroTitle: {
		type: "boolean",
		default: false,
		label: "Hook title",
		help: "A hook title over each clip's first 3 seconds.",
		cli: [{ flag: "--hook", negate: "--no-hook", help: "AI hook title over the first seconds" }],
		form: { group: "look" },
	},
	captionTemplateId: {
		type: "captionTemplate",
		default: "karaoke",
		label: "Caption style",
		help: `A preset look (${CAPTION_TEMPLATES.join(", ")}) or \`custom:<id>\`, one of the workspace's own templates. GET /api/caption-templates lists them with previews.`,
		cli: [
			{
				flag: "--captions <style>",
				choices: CAPTION_TEMPLATES,
				turnsOn: "enableCaptions",
				negate: "--no-captions",
				help: "burn in captions in a preset look",
			},
			{
				flag: "--caption-template <id>",
				turnsOn: "enableCaptions",
				help: "burn in captions in a look: a preset or custom:<id> (see clipforge caption-templates)",
			},
		],
		form: { group: "looks" },
	},
	language: {
		type: "enum",
		choices: LANGUAGE_CODES,
		choiceLabels: LANGUAGES,
		nullable: true,
		default: null,
		label: "Language of the speech",
		help: "ISO 639-1 code of the speech (en, es, hi …; one of the languages Whisper transcribes); null detects it. Supplied captions or the source's subtitles are read in it; the local transcriber hears only English.",
		cli: [{ flag: "--language <code>", help: "language code of the speech (en, es, hi …)" }],
		form: { group: "clips", submitOnly: true },
	},
	sourceSubtitles: {
		type: "enum",
		choices: ["manual", "any", "off"],
		default: "manual",
		label: "Use the source's subtitles",
		help: "A hosted source's own subtitles in the speech's language replace transcription: manual uses those made by people; any also automatic ones; off always transcribes. Supplied captions win over both.",
		cli: [{ flag: "--subtitles <use>", help: "the source's own subtitles: manual, any or off" }],
		form: { group: "clips", submitOnly: true },
	},
	timeframeStart: {
		type: "number",
		min: 0,
		default: 0,
		label: "From (s)",
		help: "Only use the video from this second on (skip an intro).",
		cli: [{ flag: "--from <seconds>", help: "time frame start" }],
		form: null,
	},
	timeframeEnd: {
		type: "number",
		exclusiveMin: 0,
		nullable: true,
		default: null,
		label: "To (s)",
		help: "Only use the video up to this second; null = to the end.",
		cli: [{ flag: "--to <seconds>", help: "time frame end" }],
		form: null,
	},
	enableSplitScreen: {
		type: "boolean",
		default: false,
		label: "Split-screen",
		help: "Put the video over a looping background (split-screen).",
		// Set by splitScreenBgVideoId's flag: --split <background> turns it on, --no-split off.
		cli: [],
		form: { group: "look" },
	},
	splitScreenBgVideoId: {
		...backgroundRef,
		default: null,
		label: "Background",
		help: "A background id for split-screen (GET /api/backgrounds lists them); null picks one from the category.",
		cli: [
			{
				flag: "--split <background>",
				turnsOn: "enableSplitScreen",
				negate: "--no-split",
				into: "splitScreenBgCategoryId",
				intoWhen: BACKGROUND_CATEGORY_IDS,
				help: "split-screen over a background id or category (see GET /api/backgrounds)",
			},
		],
		form: null,
	},
	splitScreenBgCategoryId: {
		...backgroundRef,
		default: null,
		label: "Background category",
		help: `A background category for split-screen: ${BACKGROUND_CATEGORY_IDS.join(", ")} (${DEFAULT_BACKGROUND_CATEGORY} when both are null).`,
		cli: [],
		form: {
			group: "look",
			choicesFrom: "backgroundCategories",
			fallback: DEFAULT_BACKGROUND_CATEGORY,
			onlyWith: "enableSplitScreen",
		},
	},
	splitRatio: {
		type: "number",
		...SPLIT_RATIO,
		default: 50,
		label: "Video share of the height (%)",
		help: "Share of the height the video takes in split-screen, percent.",
		cli: [{ flag: "--split-ratio <percent>", help: "height share of the video in split-screen" }],
		form: { group: "look" },
	},
	/** smartCrop and layout: the render options' rows (the contract's RENDER_OPTIONS), in the API's order. */
	...RENDER_CONFIG_OPTIONS,
	enableWatermark: {
		type: "boolean",
		default: true,
		label: "Watermark",
		help: "Draw the workspace's watermark.",
		cli: [{ flag: "--watermark", negate: "--no-watermark", help: "draw the workspace's watermark (the default)" }],
		form: { group: "look" },
	},
	skipClipping: {
		type: "boolean",
		default: false,
		label: "Transcribe only (no clips)",
		help: "Only transcribe, make no clips.",
		cli: [{ flag: "--transcribe-only", submitOnly: true, help: "only transcribe (no clips)" }],
		form: { group: "end", submitOnly: true },
	},
	customPrompt: {
		type: "text",
		maxLength: CUSTOM_PROMPT_MAX,
		nullable: true,
		default: null,
		label: "What to look for (optional)",
		help: "What to look for, in plain words: relevance to it then leads the ranking.",
		cli: [{ flag: "--prompt <text>", help: "what to look for (custom prompt)" }],
		form: { group: "prompt" },
	},
	removeSilences: {
		type: "boolean",
		default: false,
		label: "Remove silences (jump cuts)",
		help: "Cut pauses of `silenceThresholdSeconds` or more inside each clip (jump cuts; captions follow). `clipDurationMin`/`clipDurationMax` bound the clip's span in the source, before the cuts: the rendered file is shorter by the pauses removed.",
		cli: [
			{
				flag: "--remove-silences",
				negate: "--no-remove-silences",
				help: "cut the pauses inside each clip (jump cuts; captions follow)",
				negateHelp: "keep the pauses",
			},
		],
		form: { group: "look" },
	},
	silenceThresholdSeconds: {
		type: "number",
		...SILENCE_THRESHOLD,
		step: 0.1,
		default: 0.6,
		label: "Cut pauses longer than (s)",
		help: "With `removeSilences`: the shortest pause (seconds, between two words of the transcript) that is cut.",
		cli: [{ flag: "--silence-threshold <seconds>", help: "with --remove-silences: shortest pause cut" }],
		form: { group: "look" },
	},
	maxClips: {
		type: "number",
		integer: true,
		min: 1,
		max: 30,
		nullable: true,
		default: null,
		label: "At most this many clips (empty = all)",
		help: "At most this many clips, the best by score (split-clips too); null = every clip the ranking finds.",
		cli: [{ flag: "--max-clips <count>", help: "at most this many clips, the best by score" }],
		form: { group: "clips" },
	},
} as const satisfies Record<string, ConfigOption>;

export type ConfigOptions = typeof CONFIG_OPTIONS;
export type ConfigKey = keyof ConfigOptions;
/** A config with every field, as stored and as the workflow reads it. */
export type ConfigShape = ConfigValues<ConfigOptions>;

/** The seed's defaults, exactly (and each later option's). */
export const CONFIG_DEFAULTS = defaultsOf(CONFIG_OPTIONS);

export function defaultsOf<T extends Record<string, ConfigOption>>(options: T): ConfigValues<T> {
	return Object.fromEntries(Object.entries(options).map(([key, option]) => [key, option.default])) as ConfigValues<T>;
}
