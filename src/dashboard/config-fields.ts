/**
 * The video forms' fields, derived from the config table (`@clipforge/domain` CONFIG_OPTIONS): which
 * options the new-video and regenerate forms show, in which group, with which input. Pure data
 * (no DOM), so a test can check that a new row of the table reaches the form; config-form.ts draws it.
 */
import { CONFIG_OPTIONS, type ConfigOption, type FormPlace } from "@clipforge/domain";

export type FieldInput =
	| { kind: "select"; choices: readonly string[] }
	/** Many named choices (languages): a text box that suggests and accepts a name or a code; empty is null. */
	| { kind: "search-select"; choices: readonly string[]; labels: Readonly<Record<string, string>> }
	/** Choices the page loads (the workspace's background categories). */
	| { kind: "loaded-select"; from: "backgroundCategories"; fallback: string | undefined }
	| { kind: "number"; min?: number; max?: number; step: number }
	| { kind: "check" }
	| { kind: "text"; maxLength?: number; pattern?: string }
	| { kind: "textarea"; maxLength?: number }
	/** The caption look picker (previews of every look). */
	| { kind: "looks" };

export interface FormField {
	key: string;
	label: string;
	/** The option's help, shown as the input's tooltip. */
	help: string;
	group: FormPlace["group"];
	input: FieldInput;
	nullable: boolean;
	/** Sent only while this checkbox is checked (null otherwise). */
	onlyWith?: string;
}

/** Texts longer than this get a text area. */
const LONG_TEXT = 200;

function inputOf(option: ConfigOption, place: FormPlace): FieldInput {
	if (place.choicesFrom) return { kind: "loaded-select", from: place.choicesFrom, fallback: place.fallback };
	switch (option.type) {
		case "enum":
			return option.choiceLabels
				? { kind: "search-select", choices: option.choices, labels: option.choiceLabels }
				: { kind: "select", choices: option.choices };
		case "boolean":
			return { kind: "check" };
		case "captionTemplate":
			return { kind: "looks" };
		case "number":
			return { kind: "number", min: option.min, max: option.max, step: option.step ?? 1 };
		case "text":
			return (option.maxLength ?? Infinity) > LONG_TEXT
				? { kind: "textarea", maxLength: option.maxLength }
				: { kind: "text", maxLength: option.maxLength, pattern: option.pattern?.replace(/^\^|\$$/g, "") };
	}
}

/** The fields of a form, in the table's order; a reprocess's form leaves out what a reprocess cannot change. */
export function formFieldsOf(options: Record<string, ConfigOption>, form: { reprocess?: boolean } = {}): FormField[] {
	return Object.entries(options).flatMap(([key, option]): FormField[] => {
		const place = option.form;
		if (!place || (form.reprocess && place.submitOnly)) return [];
		const field: FormField = {
			key,
			label: option.label,
			help: option.help,
			group: place.group,
			input: inputOf(option, place),
			nullable: Boolean(option.nullable),
		};
		if (place.onlyWith) field.onlyWith = place.onlyWith;
		return [field];
	});
}

export const configFormFields = (form: { reprocess?: boolean } = {}) => formFieldsOf(CONFIG_OPTIONS, form);
