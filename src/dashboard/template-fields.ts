/**
 * The brand-kit form's inputs, one per caption-template field of the contract's table
 * (CAPTION_TEMPLATE_FIELDS): an enum is a select whose first choice is "the preset's" (sent as
 * null), a colour a colour picker (which cannot be empty, so it shows the preset's colour until
 * changed, and always sends a colour).
 */
import {
	CAPTION_OVERRIDE_FIELDS,
	CAPTION_PRESETS,
	CAPTION_TEMPLATE_FIELDS,
	type CaptionOverrideField,
	type TemplateField,
} from "@clipforge/contract/words";
import type { Schemas } from "./api";
import { field, h } from "./dom";

type Template = Schemas["CaptionTemplate"];
export type TemplateInputs = Record<CaptionOverrideField, HTMLInputElement | HTMLSelectElement>;
/** What the form sends for the fields. */
export type TemplateFieldsBody = Pick<Schemas["CreateCaptionTemplate"], CaptionOverrideField>;

const PRESET_DEFAULT = "";
const rowOf = (f: CaptionOverrideField) => CAPTION_TEMPLATE_FIELDS[f] as TemplateField;
/** `lookFont`, `lookTextColor`, …: the ids the form has always had. */
const idOf = (f: CaptionOverrideField) => `look${f[0]!.toUpperCase()}${f.slice(1)}`;

function fieldInput(f: CaptionOverrideField): HTMLInputElement | HTMLSelectElement {
	const row = rowOf(f);
	if (row.type === "color") return h("input", { id: idOf(f), type: "color" });
	return h(
		"select",
		{ id: idOf(f) },
		h("option", { value: PRESET_DEFAULT, text: "The preset's" }),
		row.choices.map((c) => h("option", { value: c, text: row.choiceLabels?.[c] ?? c })),
	);
}

export const templateInputs = (): TemplateInputs =>
	Object.fromEntries(CAPTION_OVERRIDE_FIELDS.map((f) => [f, fieldInput(f)])) as TemplateInputs;

/** The labelled inputs, in the table's order. */
export const templateFieldRows = (inputs: TemplateInputs) =>
	CAPTION_OVERRIDE_FIELDS.map((f) => field(idOf(f), rowOf(f).label, inputs[f]));

/** The colour pickers show the preset's colours. */
export function showPresetColors(inputs: TemplateInputs, presetId: string): void {
	const look: Record<string, unknown> = CAPTION_PRESETS.find((p) => p.id === presetId)!.look;
	for (const f of CAPTION_OVERRIDE_FIELDS)
		if (rowOf(f).type === "color") inputs[f].value = String(look[f]).toLowerCase();
}

/** A saved template in the form: its overrides in the selects, its resolved colours in the pickers. */
export function showTemplate(inputs: TemplateInputs, t: Template): void {
	for (const f of CAPTION_OVERRIDE_FIELDS)
		inputs[f].value = rowOf(f).type === "color" ? t[f].toLowerCase() : (t.overrides?.[f] ?? PRESET_DEFAULT);
}

/** The fields as the API's body; the selects offer only the table's choices. */
export const readTemplate = (inputs: TemplateInputs): TemplateFieldsBody =>
	Object.fromEntries(
		CAPTION_OVERRIDE_FIELDS.map((f) => {
			const value = inputs[f].value;
			return [f, rowOf(f).type === "color" ? value.toUpperCase() : value || null];
		}),
	) as TemplateFieldsBody;
