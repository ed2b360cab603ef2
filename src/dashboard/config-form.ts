/**
 * The config fields of a video (every option the config table puts in the form: config-fields.ts),
 * shared by the new-video form and the video page's "Regenerate clips with these settings" form,
 * and reading them back as a config.
 */
import { CONFIG_DEFAULTS, type ConfigShape } from "@clipforge/domain";
import type { Schemas } from "./api";
import { lookPicker, pickedLook, type CaptionTemplateList } from "./caption-looks";
import { configFormFields, type FormField } from "./config-fields";
import { check, field, h, select } from "./dom";

/** A config as the API answers it. */
export type FormConfig = ConfigShape;

/** What a new video starts with here: the API's defaults, but captions on (a person at the dashboard wants to see them). */
export const NEW_VIDEO_CONFIG: FormConfig = { ...CONFIG_DEFAULTS, enableCaptions: true };

/** What the page loaded for the fields whose choices are not in the table. */
export interface LoadedChoices {
	backgroundCategories: string[];
	looks: CaptionTemplateList;
}

const GROUPS = [
	["clips", "Clips"],
	["look", "Look"],
] as const;

function inputFor(f: FormField, value: unknown, loaded: LoadedChoices): HTMLElement {
	const id = f.key;
	const text = value === null || value === undefined ? "" : String(value);
	switch (f.input.kind) {
		case "select":
			return field(id, f.label, select(id, f.input.choices, text));
		case "search-select":
			return field(id, f.label, searchSelect(id, f.input.choices, f.input.labels, text, f.help));
		case "loaded-select":
			return field(id, f.label, select(id, loaded[f.input.from], text || (f.input.fallback ?? "")));
		case "number":
			return field(
				id,
				f.label,
				h("input", {
					id,
					type: "number",
					min: f.input.min,
					max: f.input.max,
					step: f.input.step,
					value: text,
					title: f.help,
				}),
			);
		case "check":
			return check(id, f.label, value === true);
		case "text":
			return field(
				id,
				f.label,
				h("input", {
					id,
					type: "text",
					maxlength: f.input.maxLength,
					pattern: f.input.pattern,
					value: text,
					title: f.help,
				}),
			);
		case "textarea":
			return field(id, f.label, h("textarea", { id, rows: 2, maxlength: f.input.maxLength, text }));
		case "looks":
			return lookPicker(loaded.looks, text);
	}
}

/**
 * The fields, filled from `initial`: the "Clips" and "Look" fieldsets, the look picker, the prompt,
 * then the rest. A reprocess reuses the transcript, so it shows what it cannot change (language,
 * "transcribe only") not at all: the API would refuse a change of either.
 */
export function configFields(
	initial: FormConfig,
	loaded: LoadedChoices,
	options: { reprocess?: boolean } = {},
): HTMLElement[] {
	const fields = configFormFields(options);
	const draw = (f: FormField) =>
		inputFor(
			f,
			(initial as Record<string, unknown>)[f.key] ?? (CONFIG_DEFAULTS as Record<string, unknown>)[f.key],
			loaded,
		);
	const inGroup = (group: FormField["group"]) => fields.filter((f) => f.group === group).map(draw);
	return [
		...GROUPS.map(([group, legend]) =>
			h("fieldset", {}, h("legend", { text: legend }), h("div", { class: "grid" }, ...inGroup(group))),
		),
		...inGroup("looks"),
		...inGroup("prompt"),
		...inGroup("end"),
	];
}

/** "Hindi (hi)": what the search box shows and suggests for a choice. */
const named = (code: string, labels: Readonly<Record<string, string>>) => `${labels[code] ?? code} (${code})`;

/**
 * A text box with the choices as suggestions ("Hin…" offers "Hindi (hi)"), for lists too long to
 * scroll; it accepts a name, a code or a suggestion, and empty (null: detect).
 */
function searchSelect(
	id: string,
	choices: readonly string[],
	labels: Readonly<Record<string, string>>,
	value: string,
	help: string,
): HTMLElement {
	const list = `${id}-choices`;
	const input = h("input", {
		id,
		type: "search",
		list,
		autocomplete: "off",
		placeholder: "Detect it",
		value: value ? named(value, labels) : "",
		title: help,
	}) as HTMLInputElement;
	input.addEventListener("input", () => {
		input.setCustomValidity(
			input.value.trim() === "" || choiceOf(input.value, choices, labels) ? "" : "Pick one of the suggestions.",
		);
	});
	return h(
		"span",
		{},
		input,
		h("datalist", { id: list }, ...choices.map((c) => h("option", { value: named(c, labels) }))),
	);
}

/** The choice a search box's text names: "Hindi (hi)", "hi" or "hindi"; null when none. */
export function choiceOf(
	text: string,
	choices: readonly string[],
	labels: Readonly<Record<string, string>>,
): string | null {
	const t = text.trim().toLowerCase();
	const code = /\(([^()]+)\)\s*$/.exec(t)?.[1] ?? t;
	return choices.find((c) => c.toLowerCase() === code || (labels[c] ?? "").toLowerCase() === t) ?? null;
}

function valueOf(form: HTMLFormElement, f: FormField): unknown {
	if (f.input.kind === "looks") return pickedLook(form);
	const input = form.querySelector<HTMLInputElement>(`#${f.key}`);
	if (!input) return undefined;
	if (f.onlyWith && !form.querySelector<HTMLInputElement>(`#${f.onlyWith}`)?.checked) return null;
	switch (f.input.kind) {
		case "check":
			return input.checked;
		case "number":
			return input.value === "" && f.nullable ? null : Number(input.value);
		case "text":
		case "textarea":
			return input.value.trim() || (f.nullable ? null : "");
		case "search-select":
			return input.value.trim() === ""
				? null
				: (choiceOf(input.value, f.input.choices, f.input.labels) ?? input.value);
		default:
			return input.value;
	}
}

/**
 * The form's fields as a config. The fields it does not show are left out: the API keeps or
 * defaults them (the generated type is the config with its defaults filled, hence the cast).
 */
export function readConfig(
	form: HTMLFormElement,
	options: { reprocess?: boolean } = {},
): NonNullable<Schemas["VideoConfig"]> {
	const config: Record<string, unknown> = {};
	for (const f of configFormFields(options)) {
		const value = valueOf(form, f);
		if (value !== undefined) config[f.key] = value;
	}
	return config as NonNullable<Schemas["VideoConfig"]>;
}
