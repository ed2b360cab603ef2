/**
 * The caption look picker: every look of GET /api/caption-templates (the presets, then the
 * workspace's own templates) as a radio card with its preview image, in the video forms.
 */
import { CAPTION_OVERRIDE_FIELDS, CAPTION_PRESETS, type CaptionLookData } from "@clipforge/contract/words";
import { api, call, type Schemas } from "./api";
import { h } from "./dom";

export type CaptionTemplate = Schemas["CaptionTemplate"];
/** GET /api/caption-templates: the looks, and the fonts and positions a template may use. */
export type CaptionTemplateList = Awaited<ReturnType<typeof listCaptionTemplates>>;

const listCaptionTemplates = (workspaceId: string) =>
	call(api.GET("/api/caption-templates", { params: { query: { workspaceId } } }));

/** The workspace's looks; without the API (or the tier for previews), the presets by name. */
export async function loadCaptionTemplates(workspaceId: string): Promise<CaptionTemplateList> {
	return listCaptionTemplates(workspaceId).catch((): CaptionTemplateList => ({
		templates: CAPTION_PRESETS.map((p) => ({
			id: p.id,
			kind: "preset" as const,
			name: p.name,
			description: p.description,
			presetId: p.id,
			...presetFields(p.look),
			overrides: null,
			previewUrl: null,
			createdAt: null,
			updatedAt: null,
		})),
		fonts: [],
		positions: [],
	}));
}

/** A preset's values of the caption-template fields (the contract's CAPTION_TEMPLATE_FIELDS). */
const presetFields = (look: CaptionLookData) =>
	Object.fromEntries(CAPTION_OVERRIDE_FIELDS.map((f) => [f, look[f]])) as Pick<
		CaptionTemplate,
		(typeof CAPTION_OVERRIDE_FIELDS)[number]
	>;

const NAME = "captionTemplateId";

/** A look's card: its preview (or its colours when there is none yet), name and description. */
export function lookCard(t: CaptionTemplate, input: HTMLElement | null = null): HTMLElement {
	const picture = t.previewUrl
		? h("img", { src: t.previewUrl, alt: "", width: 120, height: 213, loading: "lazy", class: "look-preview" })
		: h(
				"span",
				{ class: "look-preview empty", "aria-hidden": "true" },
				swatch(t.textColor),
				swatch(t.highlightColor),
			);
	return h(
		input ? "label" : "div",
		{ class: "look", title: t.description },
		input,
		picture,
		h("span", { class: "look-name", text: t.name }),
	);
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
	return h(
		"fieldset",
		{ class: "looks", role: "radiogroup", "aria-label": "Caption style" },
		h("legend", { text: "Caption style" }),
		list.templates.map((t) =>
			lookCard(
				t,
				h("input", { type: "radio", name: NAME, value: t.id, checked: t.id === chosen, "aria-label": t.name }),
			),
		),
		h(
			"p",
			{ class: "muted" },
			"Your own looks (fonts, colours, position): ",
			h("a", { href: "#/looks", text: "Caption looks" }),
			".",
		),
	);
}

export function pickedLook(form: HTMLFormElement): string | undefined {
	return form.querySelector<HTMLInputElement>(`input[name=${NAME}]:checked`)?.value;
}
