/**
 * The config fields of a video (every option of the API's config), shared by the new-video form and
 * the video page's "Regenerate clips with these settings" form, and reading them back as a config.
 */
import { ASPECT_RATIOS, CLIP_MODELS, CLIP_SECONDS, CLIP_TYPES, CONFIG_DEFAULTS as D, CUSTOM_PROMPT_MAX, DEFAULT_BACKGROUND_CATEGORY, GENRES, LAYOUTS, SILENCE_THRESHOLD, SPLIT_RATIO } from "@clipforge/domain";
import { lookPicker, pickedLook, type CaptionTemplateList } from "./caption-looks";
import type { Schemas } from "./api";
import { check, field, h, select } from "./dom";

/** A config as the API answers it (the fields this form shows). */
export interface FormConfig {
	clipType: string; clipModel: string; genre: string; clipDurationMin: number; clipDurationMax: number; aspectRatio: string; language: string | null;
	enableCaptions: boolean; captionTemplateId: string; enableIntroTitle: boolean; enableSmartCrop: boolean; layout: string; enableWatermark: boolean;
	enableSplitScreen: boolean; splitScreenBgCategoryId: string | null; splitRatio: number; customPrompt: string | null; skipClipping: boolean;
	removeSilences: boolean; silenceThresholdSeconds: number;
}

/** What a new video starts with here: the API's defaults, but captions on (a person at the dashboard wants to see them). */
export const NEW_VIDEO_CONFIG: FormConfig = { ...D, enableCaptions: true };

const number = (id: string, min: number, max: number, value: number, step = 1) => h("input", { id, type: "number", min, max, value, step });

/**
 * The fields, filled from `initial`. A reprocess reuses the transcript, so it shows no language and
 * no "transcribe only" (the API would refuse a change of either).
 */
export function configFields(initial: FormConfig, categories: string[], looks: CaptionTemplateList, options: { reprocess?: boolean } = {}): HTMLElement[] {
	const fields: (HTMLElement | null)[] = [
		h("fieldset", {}, h("legend", { text: "Clips" }), h("div", { class: "grid" },
			field("aspectRatio", "Aspect ratio", select("aspectRatio", ASPECT_RATIOS, initial.aspectRatio)),
			field("clipDurationMin", "Shortest clip (s)", number("clipDurationMin", CLIP_SECONDS.min, CLIP_SECONDS.max, initial.clipDurationMin)),
			field("clipDurationMax", "Longest clip (s)", number("clipDurationMax", CLIP_SECONDS.min, CLIP_SECONDS.max, initial.clipDurationMax)),
			field("clipModel", "Ranking model", select("clipModel", CLIP_MODELS, initial.clipModel)),
			field("genre", "Genre", select("genre", GENRES, initial.genre)),
			field("clipType", "Clip type", select("clipType", CLIP_TYPES, initial.clipType)),
			options.reprocess ? null : field("language", "Language (2 letters, empty = detect)", h("input", { id: "language", type: "text", maxlength: 2, pattern: "[a-z]{2}", value: initial.language ?? "" })),
		)),
		h("fieldset", {}, h("legend", { text: "Look" }), h("div", { class: "grid" },
			check("enableCaptions", "Captions", initial.enableCaptions),
			check("enableIntroTitle", "Hook title", initial.enableIntroTitle),
			check("enableSmartCrop", "Smart crop (follow faces)", initial.enableSmartCrop),
			field("layout", "Two-person layout", select("layout", LAYOUTS, initial.layout ?? D.layout)),
			check("enableWatermark", "Watermark", initial.enableWatermark),
			check("enableSplitScreen", "Split-screen", initial.enableSplitScreen),
			field("splitScreenBgCategoryId", "Background category", select("splitScreenBgCategoryId", categories, initial.splitScreenBgCategoryId ?? DEFAULT_BACKGROUND_CATEGORY)),
			field("splitRatio", "Video share of the height (%)", number("splitRatio", SPLIT_RATIO.min, SPLIT_RATIO.max, initial.splitRatio)),
			check("removeSilences", "Remove silences (jump cuts)", initial.removeSilences),
			field("silenceThresholdSeconds", "Cut pauses longer than (s)", number("silenceThresholdSeconds", SILENCE_THRESHOLD.min, SILENCE_THRESHOLD.max, initial.silenceThresholdSeconds, 0.1)),
		)),
		lookPicker(looks, initial.captionTemplateId),
		field("customPrompt", "What to look for (optional)", h("textarea", { id: "customPrompt", rows: 2, maxlength: CUSTOM_PROMPT_MAX, text: initial.customPrompt ?? "" })),
		options.reprocess ? null : check("skipClipping", "Transcribe only (no clips)", initial.skipClipping),
	];
	return fields.filter((el): el is HTMLElement => el !== null);
}

/**
 * The form's fields as a config. The fields it does not show are left out: the API keeps or
 * defaults them (the generated type is the config with its defaults filled, hence the cast).
 */
export function readConfig(form: HTMLFormElement): NonNullable<Schemas["VideoConfig"]> {
	const input = (id: string) => form.querySelector<HTMLInputElement>(`#${id}`);
	const value = (id: string) => input(id)!.value;
	const checked = (id: string) => input(id)!.checked;
	const config: Record<string, unknown> = {
		aspectRatio: value("aspectRatio"), clipDurationMin: Number(value("clipDurationMin")), clipDurationMax: Number(value("clipDurationMax")),
		clipModel: value("clipModel"), genre: value("genre"), clipType: value("clipType"),
		enableCaptions: checked("enableCaptions"), captionTemplateId: pickedLook(form),
		removeSilences: checked("removeSilences"), silenceThresholdSeconds: Number(value("silenceThresholdSeconds")), enableIntroTitle: checked("enableIntroTitle"),
		enableSmartCrop: checked("enableSmartCrop"), layout: value("layout"), enableWatermark: checked("enableWatermark"), enableSplitScreen: checked("enableSplitScreen"),
		splitScreenBgCategoryId: checked("enableSplitScreen") ? value("splitScreenBgCategoryId") : null, splitRatio: Number(value("splitRatio")),
		customPrompt: value("customPrompt").trim() || null,
	};
	if (input("language")) config.language = value("language") || null;
	if (input("skipClipping")) config.skipClipping = checked("skipClipping");
	return config as NonNullable<Schemas["VideoConfig"]>;
}
