/** What `caption-templates create` and `update` share: the look's flags, the body they send, how a template reads. */
import {
	CAPTION_OVERRIDE_FIELDS,
	CAPTION_PRESET_IDS,
	CAPTION_TEMPLATE_FIELDS,
	type CaptionOverrideField,
} from "@clipforge/contract/words";
import { Option, type Command } from "commander";

/** The parsed flags: a name, a preset, and a string per field of the contract's CAPTION_TEMPLATE_FIELDS. */
export type TemplateFlags = {
	name?: string;
	preset?: (typeof CAPTION_PRESET_IDS)[number];
} & { [K in CaptionOverrideField]?: string };

/** The preset's flag, then one flag per caption-template field (its row's `cli`; an enum's choices checked). */
export const withTemplateFields = (command: Command, preset: "required" | "optional") => {
	command.addOption(
		new Option("--preset <id>", "the preset look it starts from")
			.choices(CAPTION_PRESET_IDS)
			.makeOptionMandatory(preset === "required"),
	);
	for (const field of CAPTION_OVERRIDE_FIELDS) {
		const row = CAPTION_TEMPLATE_FIELDS[field];
		const option = new Option(row.cli.flag, row.cli.help);
		command.addOption(row.type === "enum" ? option.choices(row.choices) : option);
	}
	return command;
};

/** The fields given, as the API's body (the others are left out: the preset's, or unchanged). */
export const templateBody = (opts: TemplateFlags) => {
	const body = {
		name: opts.name,
		presetId: opts.preset,
		...Object.fromEntries(CAPTION_OVERRIDE_FIELDS.map((f) => [f, opts[f]])),
	};
	return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
};

export const templateText = (t: {
	id: string;
	name: string;
	font: string;
	textColor: string;
	highlightColor: string;
	position: string;
}) =>
	`${t.id}  ${t.name}  (${t.font}, ${t.textColor}/${t.highlightColor}, ${t.position}). Use it with: clipforge submit <url> --caption-template ${t.id}`;
