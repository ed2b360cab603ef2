/**
 * The processing config (seed 2.3) with API.md's bounds. Defaults are exactly the seed's; unknown
 * fields and wrong-case enum values are refused (400), so a typo never silently becomes a default.
 * Routes validate with it, the workflow, ranking and billing read it.
 */
import { z } from "@hono/zod-openapi";
import {
	ASPECT_RATIOS, CAPTION_TEMPLATES, CLIP_MODELS, CLIP_SECONDS, CLIP_TYPES, CONFIG_DEFAULTS as D, CUSTOM_PROMPT_MAX, GENRES, LAYOUTS, SILENCE_THRESHOLD, SPLIT_RATIO,
} from "@clipforge/domain";
import { CaptionTemplateId } from "./caption-template-id";

export { CAPTION_TEMPLATES, CLIP_MODELS, CLIP_TYPES, GENRES };

const seconds = () => z.number().min(CLIP_SECONDS.min).max(CLIP_SECONDS.max);

export const VideoConfigInput = z
	.strictObject({
		clipType: z.enum(CLIP_TYPES).default(D.clipType),
		clipModel: z.enum(CLIP_MODELS).default(D.clipModel),
		genre: z.enum(GENRES).default(D.genre),
		clipDurationMin: seconds().default(D.clipDurationMin),
		clipDurationMax: seconds().default(D.clipDurationMax),
		aspectRatio: z.enum(ASPECT_RATIOS).default(D.aspectRatio),
		enableCaptions: z.boolean().default(D.enableCaptions),
		enableIntroTitle: z.boolean().default(D.enableIntroTitle),
		captionTemplateId: CaptionTemplateId.default(D.captionTemplateId),
		language: z
			.string()
			.regex(/^[a-z]{2}$/, "must be a two-letter ISO 639-1 code such as en, hi or es")
			.nullable()
			.default(D.language),
		timeframeStart: z.number().min(0).default(D.timeframeStart),
		timeframeEnd: z.number().positive().nullable().default(D.timeframeEnd),
		enableSplitScreen: z.boolean().default(D.enableSplitScreen),
		splitScreenBgVideoId: z.string().min(1).max(128).nullable().default(D.splitScreenBgVideoId),
		splitScreenBgCategoryId: z.string().min(1).max(128).nullable().default(D.splitScreenBgCategoryId),
		splitRatio: z.number().min(SPLIT_RATIO.min).max(SPLIT_RATIO.max).default(D.splitRatio),
		enableSmartCrop: z.boolean().default(D.enableSmartCrop),
		layout: z.enum(LAYOUTS).default(D.layout).openapi({
			description:
				"How a vertical or square clip frames two people. auto: with enableSmartCrop on, a speaker layout when two faces are steadily in view (follow-speaker when who speaks can be told, stacked when not), otherwise smart crop; with it off, the centre (no face scan); follow-speaker: cut to the active speaker; stacked: both faces, one above the other; single: never a speaker layout.",
		}),
		enableWatermark: z.boolean().default(D.enableWatermark),
		skipClipping: z.boolean().default(D.skipClipping),
		customPrompt: z.string().max(CUSTOM_PROMPT_MAX).nullable().default(D.customPrompt),
		removeSilences: z.boolean().default(D.removeSilences).openapi({
			description: "Cut pauses of `silenceThresholdSeconds` or more inside each clip (jump cuts; captions follow). `clipDurationMin`/`clipDurationMax` bound the clip's span in the source, before the cuts: the rendered file is shorter by the pauses removed.",
		}),
		silenceThresholdSeconds: z.number().min(SILENCE_THRESHOLD.min).max(SILENCE_THRESHOLD.max).default(D.silenceThresholdSeconds).openapi({
			description: "With `removeSilences`: the shortest pause (seconds, between two words of the transcript) that is cut.",
		}),
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
