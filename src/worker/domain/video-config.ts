/**
 * The processing config with API.md's bounds, as zod: built from the config table
 * (`@clipforge/domain` CONFIG_OPTIONS), one field per row with its type, bounds, default and help.
 * Defaults are exactly the seed's; unknown fields and wrong-case enum values are refused (400), so
 * a typo never silently becomes a default. Routes validate with it, the workflow, ranking and
 * billing read it.
 */
import { z } from "@hono/zod-openapi";
import { CONFIG_OPTIONS, type ConfigOption, type ConfigValues } from "@clipforge/domain";
import { CaptionTemplateId } from "./caption-template-id";

export { CAPTION_TEMPLATES, CLIP_MODELS, CLIP_TYPES, GENRES, frameOf } from "@clipforge/domain";

/** One option as a zod field: its type and bounds, described by its help, defaulting to its default. */
function fieldOf(option: ConfigOption): z.ZodDefault<z.ZodType> {
	const value = valueSchema(option).openapi({ description: option.help });
	return (option.nullable ? value.nullable() : value).default(option.default as never);
}

function valueSchema(option: ConfigOption): z.ZodType {
	switch (option.type) {
		case "enum":
			return z.enum(option.choices);
		case "boolean":
			return z.boolean();
		case "captionTemplate":
			return CaptionTemplateId;
		case "number": {
			let n = z.number();
			if (option.integer) n = n.int();
			if (option.min !== undefined) n = n.min(option.min);
			if (option.exclusiveMin !== undefined) n = n.gt(option.exclusiveMin);
			return option.max === undefined ? n : n.max(option.max);
		}
		case "text": {
			let s = z.string();
			if (option.minLength !== undefined) s = s.min(option.minLength);
			if (option.maxLength !== undefined) s = s.max(option.maxLength);
			return option.pattern === undefined ? s : s.regex(new RegExp(option.pattern), option.patternMessage);
		}
	}
}

/** The zod fields of a config table (the API's table, or a test's). */
export function configShapeOf<T extends Record<string, ConfigOption>>(
	options: T,
): { [K in keyof T]: z.ZodDefault<z.ZodType<ConfigValues<T>[K]>> } {
	return Object.fromEntries(Object.entries(options).map(([key, option]) => [key, fieldOf(option)])) as never;
}

export const VideoConfigInput = z
	.strictObject(configShapeOf(CONFIG_OPTIONS))
	.superRefine((config, ctx) => {
		if (config.clipDurationMax < config.clipDurationMin) {
			ctx.addIssue({
				code: "custom",
				path: ["clipDurationMax"],
				message: "must be greater than or equal to clipDurationMin",
			});
		}
		if (config.timeframeEnd !== null && config.timeframeEnd <= config.timeframeStart) {
			ctx.addIssue({ code: "custom", path: ["timeframeEnd"], message: "must be greater than timeframeStart" });
		}
	})
	.openapi("VideoConfig");

export type VideoConfig = z.output<typeof VideoConfigInput>;

/** The config with every default filled, as stored and as the workflow reads it. */
export const defaultConfig = (): VideoConfig => VideoConfigInput.parse({});
