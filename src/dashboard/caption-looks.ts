/**
 * The caption look picker: every look of GET /api/caption-templates (the presets, then the
 * workspace's own templates) as a radio card with its preview image, in the video forms.
 */
import { CAPTION_PRESETS } from "@clipforge/contract/words";
import { api } from "./api";
import { h } from "./dom";

export interface CaptionTemplate {
	id: string;
	kind: "preset" | "custom";
	name: string;
	description: string;
	presetId: string;
	font: string;
	textColor: string;
	highlightColor: string;
	position: string;
	overrides: { font: string | null; textColor: string | null; highlightColor: string | null; position: string | null } | null;
	previewUrl: string | null;
}

export interface CaptionTemplateList {
	templates: CaptionTemplate[];
	fonts: { id: string; name: string }[];
	positions: string[];
}

/** The workspace's looks; without the API (or the tier for previews), the presets by name. */
export async function loadCaptionTemplates(workspaceId: string): Promise<CaptionTemplateList> {
	return api<CaptionTemplateList>("GET", `/api/caption-templates?workspaceId=${encodeURIComponent(workspaceId)}`).catch(() => ({
		templates: CAPTION_PRESETS.map((p) => ({
			id: p.id, kind: "preset" as const, name: p.name, description: p.description, presetId: p.id, font: p.look.font,
			textColor: p.look.textColor, highlightColor: p.look.highlightColor, position: p.look.position, overrides: null, previewUrl: null,
		})),
		fonts: [],
		positions: [],
	}));
}

const NAME = "captionTemplateId";

/** A look's card: its preview (or its colours when there is none yet), name and description. */
export function lookCard(t: CaptionTemplate, input: HTMLElement | null = null): HTMLElement {
	const picture = t.previewUrl
		? h("img", { src: t.previewUrl, alt: "", width: 120, height: 213, loading: "lazy", class: "look-preview" })
		: h("span", { class: "look-preview empty", "aria-hidden": "true" }, swatch(t.textColor), swatch(t.highlightColor));
	return h(input ? "label" : "div", { class: "look", title: t.description }, input, picture, h("span", { class: "look-name", text: t.name }));
}

/** A colour chip, set through the CSSOM (the page's CSP allows no inline style attributes). */
function swatch(color: string): HTMLElement {
	const el = h("span", { class: "swatch" });
	el.style.background = color;
	return el;
}

/**
 * The radio group named `captionTemplateId`, `selected` checked (the first look when it is not
 * listed, e.g. a template deleted since). Read it back with pickedLook().
 */
export function lookPicker(list: CaptionTemplateList, selected: string): HTMLElement {
	const chosen = list.templates.some((t) => t.id === selected) ? selected : (list.templates[0]?.id ?? "");
	return h("fieldset", { class: "looks", role: "radiogroup", "aria-label": "Caption style" },
		h("legend", { text: "Caption style" }),
		list.templates.map((t) => lookCard(t, h("input", { type: "radio", name: NAME, value: t.id, checked: t.id === chosen, "aria-label": t.name }))),
		h("p", { class: "muted" }, "Your own looks (fonts, colours, position): ", h("a", { href: "#/looks", text: "Caption looks" }), "."),
	);
}

export function pickedLook(form: HTMLFormElement): string | undefined {
	return form.querySelector<HTMLInputElement>(`input[name=${NAME}]:checked`)?.value;
}
