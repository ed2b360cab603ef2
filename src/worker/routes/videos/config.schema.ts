/**
 * The processing config (seed 2.3) with API.md's bounds. Defaults are exactly the seed's; unknown
 * fields and wrong-case enum values are refused (400), so a typo never silently becomes a default.
 */
import { z } from "@hono/zod-openapi";
import { ASPECT_RATIOS } from "@clipforge/contract";

export const CLIP_TYPES = ["viral-clips", "split-clips"] as const;
export const CLIP_MODELS = ["ClipBasic", "ClipPro"] as const;
export const GENRES = ["Auto", "Podcast", "Gaming", "Education", "Entertainment"] as const;
export const CAPTION_TEMPLATES = ["karaoke", "word-by-word", "sentence"] as const;

const seconds = (min: number, max: number) => z.number().min(min).max(max);

export const VideoConfigInput = z
	.strictObject({
		clipType: z.enum(CLIP_TYPES).default("viral-clips"),
		clipModel: z.enum(CLIP_MODELS).default("ClipBasic"),
		genre: z.enum(GENRES).default("Auto"),
		clipDurationMin: seconds(5, 600).default(15),
		clipDurationMax: seconds(5, 600).default(90),
		aspectRatio: z.enum(ASPECT_RATIOS).default("9:16"),
		enableCaptions: z.boolean().default(false),
		enableIntroTitle: z.boolean().default(false),
		captionTemplateId: z.enum(CAPTION_TEMPLATES).default("karaoke"),
		language: z
			.string()
			.regex(/^[a-z]{2}$/, "must be a two-letter ISO 639-1 code such as en, hi or es")
			.nullable()
			.default(null),
		timeframeStart: z.number().min(0).default(0),
		timeframeEnd: z.number().positive().nullable().default(null),
		enableSplitScreen: z.boolean().default(false),
		splitScreenBgVideoId: z.string().min(1).max(128).nullable().default(null),
		splitScreenBgCategoryId: z.string().min(1).max(128).nullable().default(null),
		splitRatio: z.number().min(10).max(90).default(50),
		enableSmartCrop: z.boolean().default(false),
		enableWatermark: z.boolean().default(true),
		skipClipping: z.boolean().default(false),
		customPrompt: z.string().max(2000).nullable().default(null),
	})
	.superRefine((config, ctx) => {
		if (config.clipDurationMax < config.clipDurationMin) {
			ctx.addIssue({ code: "custom", path: ["clipDurationMax"], message: "must be greater than or equal to clipDurationMin" });
		}
		if (config.timeframeEnd !== null && config.timeframeEnd <= config.timeframeStart) {
			ctx.addIssue({ code: "custom", path: ["timeframeEnd"], message: "must be greater than timeframeStart" });
		}
	})
	.openapi("VideoConfig");

export type VideoConfig = z.output<typeof VideoConfigInput>;

/** The config with every default filled, as stored and as the workflow reads it. */
export const defaultConfig = (): VideoConfig => VideoConfigInput.parse({});

/** Seconds of the source the config covers: the time frame clamped to the video's duration. */
export function frameOf(config: Pick<VideoConfig, "timeframeStart" | "timeframeEnd"> | null, duration: number): { start: number; end: number } {
	const start = Math.min(config?.timeframeStart ?? 0, duration);
	const end = Math.min(config?.timeframeEnd ?? duration, duration);
	return { start, end: Math.max(start, end) };
}
