/**
 * What one row of the config table (config-options.ts) says about an option, and the types every
 * surface derives from a table. Plain data and types: no zod, no DOM, no Node.
 */

/** How the option's value is written. */
export type ConfigOptionType =
	/** `choiceLabels`: a name per choice for pickers ("hi" → "Hindi"), when the codes alone do not say. */
	| { type: "enum"; choices: readonly [string, ...string[]]; choiceLabels?: Readonly<Record<string, string>> }
	| { type: "boolean" }
	| { type: "number"; min?: number; max?: number; exclusiveMin?: number; step?: number; integer?: boolean }
	| { type: "text"; minLength?: number; maxLength?: number; pattern?: string; patternMessage?: string }
	/** A preset look's id or `custom:<id>` (config-options.ts: CAPTION_TEMPLATES, CUSTOM_TEMPLATE_REF). */
	| { type: "captionTemplate" };

/** A flag of `clipforge submit` and `clipforge reprocess`. */
export interface CliFlag {
	/** `--aspect <ratio>` (a value, parsed as the option's type) or `--hook` (sets true). */
	flag: string;
	/** `--no-hook`: sets the option false, or (with `turnsOn`) turns that option off. */
	negate?: string;
	/** The negation's help text; "no <label>" otherwise. */
	negateHelp?: string;
	/** Help text; the option's label otherwise. */
	help?: string;
	/** The values the flag takes, when not the option's own enum. */
	choices?: readonly string[];
	/** Giving a value also turns this boolean option on (`--captions karaoke` → enableCaptions). */
	turnsOn?: string;
	/** The value goes into this option instead when it is one of `intoWhen` (`--split satisfying` names a category). */
	into?: string;
	intoWhen?: readonly string[];
	/** Only `clipforge submit` offers it: a reprocess cannot change it. */
	submitOnly?: boolean;
}

/** Where the dashboard's video forms show the option (null: not shown; the API's default, or the video's value, stays). */
export interface FormPlace {
	/** `clips` and `look` are fieldsets; `looks` is the look picker; `prompt` and `end` follow them. */
	group: "clips" | "look" | "looks" | "prompt" | "end";
	/** Not in the form that reprocesses a video (the API would refuse a change). */
	submitOnly?: boolean;
	/** A select whose choices the page loads (the workspace's background categories), with this value when the config has none. */
	choicesFrom?: "backgroundCategories";
	fallback?: string;
	/** Sent only while this checkbox is checked (null otherwise). */
	onlyWith?: string;
}

export type ConfigOption = ConfigOptionType & {
	/** Null only where `nullable`. */
	default: string | number | boolean | null;
	nullable?: boolean;
	/** The dashboard's label. */
	label: string;
	/** One or two sentences: the API's description of the field, the MCP tool's, the CLI's help. */
	help: string;
	/** The CLI's flags for it ([]: set through another option's flags). */
	cli: readonly CliFlag[];
	form: FormPlace | null;
};

/** The value an option holds. */
export type ConfigValue<O> =
	| (O extends { type: "enum"; choices: readonly (infer C)[] }
			? C
			: O extends { type: "boolean" }
				? boolean
				: O extends { type: "number" }
					? number
					: string)
	| (O extends { nullable: true } ? null : never);

/** A config of every option of table `T`. */
export type ConfigValues<T> = { -readonly [K in keyof T]: ConfigValue<T[K]> };

/** The bounds of a number option as words: `(5-600)`, `(0 or more)`, or nothing. */
export function boundsText(option: ConfigOption): string {
	if (option.type === "number") {
		if (option.min !== undefined && option.max !== undefined) return `${option.min}-${option.max}`;
		if (option.min !== undefined) return `${option.min} or more`;
		if (option.exclusiveMin !== undefined) return `more than ${option.exclusiveMin}`;
	}
	if (option.type === "text" && option.maxLength !== undefined) return `up to ${option.maxLength} characters`;
	return "";
}

/** `help`, its bounds and its default: what the MCP tools and `--help` say about an option. */
export function describeOption(option: ConfigOption): string {
	const bounds = boundsText(option);
	const fallback = option.default === null ? "null" : String(option.default);
	return `${option.help}${bounds ? ` (${bounds})` : ""} Default ${fallback}.`;
}
