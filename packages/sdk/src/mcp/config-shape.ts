/**
 * The MCP tools' config input, derived from the config table (`@clipforge/domain` CONFIG_OPTIONS):
 * one optional field per option, typed by it (enums as the API's enums) and described by its
 * help, bounds and default. The bounds and the rules across fields are stated, not enforced here:
 * the API judges them, so a value it refuses comes back as a tool error with its own code and message.
 */
import * as z from "zod";
import { CONFIG_OPTIONS, describeOption, type ConfigOption, type ConfigValues } from "@clipforge/domain";

function fieldOf(option: ConfigOption): z.ZodOptional<z.ZodType> {
	const value =
		option.type === "enum"
			? z.enum(option.choices)
			: option.type === "boolean"
				? z.boolean()
				: option.type === "number"
					? z.number()
					: z.string();
	return (option.nullable ? value.nullable() : value).optional().describe(describeOption(option));
}

/** Every option of a config table, each optional (the API's default, or the video's current value, stays). */
export function mcpConfigShapeOf<T extends Record<string, ConfigOption>>(
	options: T,
): { [K in keyof T]: z.ZodOptional<z.ZodType<ConfigValues<T>[K]>> } {
	return Object.fromEntries(Object.entries(options).map(([key, option]) => [key, fieldOf(option)])) as never;
}

export const configShape = mcpConfigShapeOf(CONFIG_OPTIONS);
