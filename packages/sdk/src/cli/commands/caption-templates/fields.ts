/** What `caption-templates create` and `update` share: the look's flags, the body they send, how a template reads. */
import { CAPTION_FONT_IDS, CAPTION_POSITIONS, CAPTION_PRESET_IDS } from "@clipforge/contract/words";
import { Option, type Command } from "commander";

export interface TemplateFlags {
	name?: string;
	preset?: (typeof CAPTION_PRESET_IDS)[number];
	font?: (typeof CAPTION_FONT_IDS)[number];
	textColor?: string;
	highlightColor?: string;
	position?: (typeof CAPTION_POSITIONS)[number];
}

export const withTemplateFields = (command: Command, preset: "required" | "optional") =>
	command
		.addOption(
			new Option("--preset <id>", "the preset look it starts from")
				.choices(CAPTION_PRESET_IDS)
				.makeOptionMandatory(preset === "required"),
		)
		.addOption(new Option("--font <font>", "font (installed fonts only)").choices(CAPTION_FONT_IDS))
		.option("--text-color <#RRGGBB>", "text colour")
		.option("--highlight-color <#RRGGBB>", "spoken word / box / second line colour")
		.addOption(new Option("--position <where>", "where the captions sit").choices(CAPTION_POSITIONS));

/** The fields given, as the API's body (the others are left out: the preset's, or unchanged). */
export const templateBody = (opts: TemplateFlags) => {
	const body = {
		name: opts.name,
		presetId: opts.preset,
		font: opts.font,
		textColor: opts.textColor,
		highlightColor: opts.highlightColor,
		position: opts.position,
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
