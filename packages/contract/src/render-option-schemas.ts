/** The render options' fields of a render request (RENDER_OPTIONS' rows as zod), spread into RenderClipRequest by jobs.ts. */
import { z } from "zod";
import { RENDER_OPTION_NAMES, RENDER_OPTIONS, type RenderOptionName, type RenderOptions } from "./render-options.ts";

/** A row's field: its type, defaulting to what the tier assumed before the option existed. */
type FieldOf<R> = R extends { option: { type: "enum"; choices: infer C extends readonly [string, ...string[]] } }
	? z.ZodDefault<z.ZodEnum<{ [V in C[number]]: V }>>
	: z.ZodDefault<z.ZodBoolean>;

function fieldOf(name: RenderOptionName): z.ZodType {
	const row = RENDER_OPTIONS[name];
	const option = row.option as { type: "boolean" } | { type: "enum"; choices: readonly [string, ...string[]] };
	return option.type === "enum"
		? z.enum(option.choices).default(row.requestDefault as string)
		: z.boolean().default(row.requestDefault as boolean);
}

export const renderOptionsShape = Object.fromEntries(RENDER_OPTION_NAMES.map((name) => [name, fieldOf(name)])) as {
	[K in RenderOptionName]: FieldOf<RenderOptions[K]>;
};
