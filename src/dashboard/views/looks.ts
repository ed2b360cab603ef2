/**
 * #/looks: the caption looks with their previews, and the workspace's brand kit: its own templates
 * (a preset with the workspace's font, colours and position) to create, change and delete.
 */
import { CAPTION_PRESETS } from "@clipforge/contract/words";
import { api, call, errorText, type Schemas } from "../api";
import { lookCard, loadCaptionTemplates, type CaptionTemplate, type CaptionTemplateList } from "../caption-looks";
import { field, h, toast } from "../dom";
import { show, workspaceId } from "../shell";
import { readTemplate, showPresetColors, showTemplate, templateFieldRows, templateInputs } from "../template-fields";

export async function looksView(): Promise<void> {
	const list = await loadCaptionTemplates(workspaceId());
	const mine = h("div", { class: "look-grid", "aria-label": "Your caption looks" });
	const presets = h("div", { class: "look-grid", "aria-label": "Preset caption looks" });
	const form = templateForm(() => void refresh());
	show(
		form.element,
		h(
			"section",
			{ class: "card", "aria-labelledby": "mine-title" },
			h("h2", { id: "mine-title", text: "Your looks" }),
			mine,
		),
		h(
			"section",
			{ class: "card", "aria-labelledby": "presets-title" },
			h("h2", { id: "presets-title", text: "Presets" }),
			presets,
		),
	);
	const fill = (l: CaptionTemplateList) => {
		const custom = l.templates.filter((t) => t.kind === "custom");
		mine.replaceChildren(
			...(custom.length
				? custom.map((t) => ownLookItem(t, form.edit, refresh))
				: [h("p", { class: "muted", text: "None yet: save one above, then pick it when you make clips." })]),
		);
		presets.replaceChildren(...l.templates.filter((t) => t.kind === "preset").map((t) => lookCard(t)));
	};
	const refresh = async () => fill(await loadCaptionTemplates(workspaceId()));
	fill(list);
}

/** One of the workspace's own looks: its preview, and buttons to edit or delete it. */
function ownLookItem(t: CaptionTemplate, edit: (t: CaptionTemplate) => void, refresh: () => Promise<void>) {
	const remove = async () => {
		if (!confirm(`Delete ${t.name}? Videos already submitted with it keep its look.`)) return;
		await call(
			api.DELETE("/api/caption-templates/{id}", {
				params: { path: { id: t.id }, query: { workspaceId: workspaceId() } },
			}),
		);
		toast("Deleted");
		await refresh();
	};
	return h(
		"div",
		{ class: "look-item" },
		lookCard(t),
		h(
			"div",
			{ class: "look-actions" },
			h("button", {
				type: "button",
				class: "secondary",
				"aria-label": `Edit ${t.name}`,
				text: "Edit",
				onclick: () => edit(t),
			}),
			h("button", {
				type: "button",
				class: "secondary",
				"aria-label": `Delete ${t.name}`,
				text: "Delete",
				onclick: remove,
			}),
		),
	);
}

type NewLook = Schemas["CreateCaptionTemplate"];

/** The form's inputs: a name, the preset it starts from, and what the brand changes on it (template-fields.ts). */
function lookInputs() {
	const inputs = {
		name: h("input", { id: "lookName", type: "text", required: true, maxlength: 80, placeholder: "Our brand" }),
		preset: h(
			"select",
			{ id: "lookPreset" },
			CAPTION_PRESETS.map((p) => h("option", { value: p.id, text: p.name })),
		),
		fields: templateInputs(),
	};
	const presetColors = () => showPresetColors(inputs.fields, inputs.preset.value);
	inputs.preset.addEventListener("change", presetColors);
	presetColors();
	return { ...inputs, presetColors };
}

/** What the form sends; the preset select offers only the presets. */
const lookBody = (i: ReturnType<typeof lookInputs>) => ({
	name: i.name.value,
	presetId: i.preset.value as NewLook["presetId"],
	...readTemplate(i.fields),
});

/** Saves a new look, or the changes to the one being edited. */
async function saveLook(editing: CaptionTemplate | null, body: ReturnType<typeof lookBody>): Promise<void> {
	if (editing) {
		const params = { path: { id: editing.id }, query: { workspaceId: workspaceId() } };
		await call(api.PATCH("/api/caption-templates/{id}", { params, body }));
	} else {
		await call(api.POST("/api/caption-templates", { body: { ...body, workspaceId: workspaceId() } }));
	}
}

function lookForm(inputs: ReturnType<typeof lookInputs>, ...rest: HTMLElement[]): HTMLFormElement {
	const [message, ...buttons] = rest;
	return h(
		"form",
		{ class: "card", "aria-labelledby": "looks-title" },
		h("h1", { id: "looks-title", text: "Caption looks" }),
		h("p", {
			class: "muted",
			text: "Your brand kit: start from a preset and set your font, colours and position. Every look can be picked when you make clips.",
		}),
		h(
			"div",
			{ class: "grid" },
			field("lookName", "Name", inputs.name),
			field("lookPreset", "Start from", inputs.preset),
			...templateFieldRows(inputs.fields),
		),
		message,
		h("div", { class: "look-actions" }, ...buttons),
	);
}

/** The create/edit form: a preset, then the brand's font, colours and position ("the preset's" leaves a field to it). */
function templateForm(saved: () => void) {
	let editing: CaptionTemplate | null = null;
	const inputs = lookInputs();
	const message = h("p", { class: "error", role: "alert" });
	const submit = h("button", { type: "submit", text: "Save look" });
	const cancel = h("button", {
		type: "button",
		class: "secondary",
		text: "Cancel",
		hidden: true,
		onclick: () => reset(),
	});
	const element = lookForm(inputs, message, submit, cancel);
	const reset = () => {
		editing = null;
		element.reset();
		inputs.presetColors();
		submit.textContent = "Save look";
		cancel.hidden = true;
		message.textContent = "";
	};
	element.addEventListener("submit", async (event) => {
		event.preventDefault();
		message.textContent = "";
		submit.disabled = true;
		try {
			await saveLook(editing, lookBody(inputs));
			toast(editing ? "Look saved" : "Look created");
			reset();
			saved();
		} catch (error) {
			message.textContent = errorText(error);
		} finally {
			submit.disabled = false;
		}
	});
	const edit = (t: CaptionTemplate) => {
		editing = t;
		inputs.name.value = t.name;
		inputs.preset.value = t.presetId;
		showTemplate(inputs.fields, t);
		submit.textContent = `Save ${t.name}`;
		cancel.hidden = false;
		inputs.name.focus();
	};
	return { element, edit };
}
