/**
 * The config flags of `clipforge submit` and `clipforge reprocess`, derived from the config table
 * (`@clipforge/domain` CONFIG_OPTIONS): which flags there are (configFlagSpecs) and the config a
 * parsed command line asks for (configFromFlags). No commander here: cli/config-options.ts adds
 * the specs to a command.
 */
import {
	boundsText,
	CAPTION_TEMPLATES,
	CONFIG_OPTIONS,
	CUSTOM_TEMPLATE_REF,
	type CliFlag,
	type ConfigOption,
} from "@clipforge/domain";

export interface FlagSpec {
	/** `--aspect <ratio>`, `--hook`, `--no-hook`. */
	flags: string;
	help: string;
	choices?: readonly string[];
	/** Turns the text after a value flag into the value; throws an Error that says what is wrong. */
	parse?: (value: string) => unknown;
	/** Only `clipforge submit` has it. */
	submitOnly: boolean;
}

/** The name commander gives a flag's value: `--split-ratio` → splitRatio, `--no-split` → split. */
export const attributeOf = (flag: string): string =>
	flag
		.split(/[ =]/)[0]!
		.replace(/^--(no-)?/, "")
		.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

function parserOf(option: ConfigOption, flag: string): ((value: string) => unknown) | undefined {
	const name = flag.split(" ")[0]!;
	if (option.type === "number") {
		return (value) => {
			const n = Number(value);
			if (!Number.isFinite(n)) throw new Error(`${name} must be a number.`);
			return n;
		};
	}
	return option.type === "captionTemplate" ? captionTemplateRef : undefined;
}

/** A preset id or custom:<id>, checked before anything is sent (the API checks that the template exists). */
export function captionTemplateRef(value: string): string {
	if ((CAPTION_TEMPLATES as readonly string[]).includes(value) || CUSTOM_TEMPLATE_REF.test(value)) return value;
	throw new Error(`must be one of ${CAPTION_TEMPLATES.join(", ")} or custom:<id>.`);
}

function helpOf(option: ConfigOption, flag: CliFlag): string {
	const help = flag.help ?? option.label.toLowerCase();
	if (option.type !== "number") return help;
	const bounds = boundsText(option);
	return `${help} (${bounds ? `${bounds}, ` : ""}default ${option.default ?? "none"})`;
}

/** Every flag of a config table, in the table's order (a value flag before its negation, as commander needs). */
export function configFlagSpecs(options: Record<string, ConfigOption> = CONFIG_OPTIONS): FlagSpec[] {
	return Object.values(options).flatMap((option) =>
		option.cli.flatMap((flag): FlagSpec[] => {
			const takesValue = flag.flag.includes("<");
			const choices = flag.choices ?? (option.type === "enum" && takesValue ? option.choices : undefined);
			const spec: FlagSpec = {
				flags: flag.flag,
				help: helpOf(option, flag),
				submitOnly: Boolean(flag.submitOnly),
			};
			if (choices) spec.choices = choices;
			else if (takesValue) spec.parse = parserOf(option, flag.flag);
			const negation = flag.negate
				? [{ flags: flag.negate, help: negationHelp(options, option, flag), submitOnly: spec.submitOnly }]
				: [];
			return [spec, ...negation];
		}),
	);
}

function negationHelp(options: Record<string, ConfigOption>, option: ConfigOption, flag: CliFlag): string {
	if (flag.negateHelp) return flag.negateHelp;
	const target = flag.turnsOn ? options[flag.turnsOn]! : option;
	return `no ${target.label.toLowerCase()}`;
}

/**
 * The config fields a parsed command line sets: each flag given sets its option (a value flag may
 * also turn another one on, or name another option's value), then each negation turns its option
 * off (so `--no-captions` wins over `--caption-template`); flags not given leave the field out, so
 * the API's default (or the video's value) stays.
 */
export function configFromFlags(
	opts: Record<string, unknown>,
	options: Record<string, ConfigOption> = CONFIG_OPTIONS,
): Record<string, unknown> {
	const config: Record<string, unknown> = {};
	const given = Object.entries(options).flatMap(([key, option]) =>
		option.cli.map((flag) => ({ key, flag, value: opts[attributeOf(flag.flag)] })),
	);
	for (const { key, flag, value } of given) {
		if (value === undefined || value === false) continue;
		if (value === true) config[key] = true;
		else {
			config[flag.into && flag.intoWhen?.includes(String(value)) ? flag.into : key] = value;
			if (flag.turnsOn) config[flag.turnsOn] = true;
		}
	}
	for (const { key, flag, value } of given) if (value === false) config[flag.turnsOn ?? key] = false;
	return config;
}
