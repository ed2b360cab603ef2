/**
 * #/looks: the caption looks with their previews, and the workspace's brand kit: its own templates
 * (a preset with the workspace's font, colours and position) to create, change and delete.
 */
import { CAPTION_PRESETS } from "@clipforge/contract/words";
import { api, call, errorText, type Schemas } from "../api";
import { lookCard, loadCaptionTemplates, type CaptionTemplate, type CaptionTemplateList } from "../caption-looks";
import { field, h, toast } from "../dom";
import { show, workspaceId } from "../shell";

const PRESET_DEFAULT = "";

export async function looksView(): Promise<void> {
	const list = await loadCaptionTemplates(workspaceId());
	const mine = h("div", { class: "look-grid", "aria-label": "Your caption looks" });
	const presets = h("div", { class: "look-grid", "aria-label": "Preset caption looks" });
	const form = templateForm(list, () => void refresh());
	show(
		form.element,
		h("section", { class: "card", "aria-labelledby": "mine-title" }, h("h2", { id: "mine-title", text: "Your looks" }), mine),
		h("section", { class: "card", "aria-labelledby": "presets-title" }, h("h2", { id: "presets-title", text: "Presets" }), presets),
	);
	const fill = (l: CaptionTemplateList) => {
		const custom = l.templates.filter((t) => t.kind === "custom");
		mine.replaceChildren(...(custom.length ? custom.map((t) => h("div", { class: "look-item" }, lookCard(t), h("div", { class: "look-actions" },
			h("button", { type: "button", class: "secondary", "aria-label": `Edit ${t.name}`, text: "Edit", onclick: () => form.edit(t) }),
			h("button", { type: "button", class: "secondary", "aria-label": `Delete ${t.name}`, text: "Delete", onclick: async () => {
				if (!confirm(`Delete ${t.name}? Videos already submitted with it keep its look.`)) return;
				await call(api.DELETE("/api/caption-templates/{id}", { params: { path: { id: t.id }, query: { workspaceId: workspaceId() } } }));
				toast("Deleted");
				await refresh();
			} }),
		))) : [h("p", { class: "muted", text: "None yet: save one above, then pick it when you make clips." })]));
		presets.replaceChildren(...l.templates.filter((t) => t.kind === "preset").map((t) => lookCard(t)));
	};
	const refresh = async () => fill(await loadCaptionTemplates(workspaceId()));
	fill(list);
}

/** The create/edit form: a preset, then the brand's font, colours and position ("the preset's" leaves a field to it). */
function templateForm(list: CaptionTemplateList, saved: () => void) {
	let editing: CaptionTemplate | null = null;
	const title = h("h1", { id: "looks-title", text: "Caption looks" });
	const message = h("p", { class: "error", role: "alert" });
	const name = h("input", { id: "lookName", type: "text", required: true, maxlength: 80, placeholder: "Our brand" });
	const preset = h("select", { id: "lookPreset" }, CAPTION_PRESETS.map((p) => h("option", { value: p.id, text: p.name })));
	const font = h("select", { id: "lookFont" }, h("option", { value: PRESET_DEFAULT, text: "The preset's" }), list.fonts.map((f) => h("option", { value: f.id, text: f.name })));
	const position = h("select", { id: "lookPosition" }, h("option", { value: PRESET_DEFAULT, text: "The preset's" }), list.positions.map((p) => h("option", { value: p, text: p })));
	const textColor = h("input", { id: "lookTextColor", type: "color" });
	const highlightColor = h("input", { id: "lookHighlightColor", type: "color" });
	const presetColors = () => {
		const look = CAPTION_PRESETS.find((p) => p.id === preset.value)!.look;
		textColor.value = look.textColor.toLowerCase();
		highlightColor.value = look.highlightColor.toLowerCase();
	};
	preset.addEventListener("change", presetColors);
	presetColors();
	const submit = h("button", { type: "submit", text: "Save look" });
	const cancel = h("button", { type: "button", class: "secondary", text: "Cancel", hidden: true, onclick: () => reset() });
	const element = h("form", { class: "card", "aria-labelledby": "looks-title" },
		title,
		h("p", { class: "muted", text: "Your brand kit: start from a preset and set your font, colours and position. Every look can be picked when you make clips." }),
		h("div", { class: "grid" },
			field("lookName", "Name", name),
			field("lookPreset", "Start from", preset),
			field("lookFont", "Font", font),
			field("lookTextColor", "Text colour", textColor),
			field("lookHighlightColor", "Highlight colour", highlightColor),
			field("lookPosition", "Position", position),
		),
		message,
		h("div", { class: "look-actions" }, submit, cancel),
	);
	const reset = () => {
		editing = null;
		element.reset();
		presetColors();
		submit.textContent = "Save look";
		cancel.hidden = true;
		message.textContent = "";
	};
	element.addEventListener("submit", async (event) => {
		event.preventDefault();
		message.textContent = "";
		// The selects offer only the presets, fonts and positions the API listed.
		type NewLook = Schemas["CreateCaptionTemplate"];
		const body = {
			name: name.value, presetId: preset.value as NewLook["presetId"], font: (font.value || null) as NewLook["font"], position: (position.value || null) as NewLook["position"],
			textColor: textColor.value.toUpperCase(), highlightColor: highlightColor.value.toUpperCase(),
		};
		submit.disabled = true;
		try {
			const path = { id: editing?.id ?? "" };
			if (editing) await call(api.PATCH("/api/caption-templates/{id}", { params: { path, query: { workspaceId: workspaceId() } }, body }));
			else await call(api.POST("/api/caption-templates", { body: { ...body, workspaceId: workspaceId() } }));
			toast(editing ? "Look saved" : "Look created");
			reset();
			saved();
		} catch (error) {
			message.textContent = errorText(error);
		} finally {
			submit.disabled = false;
		}
	});
	return {
		element,
		edit(t: CaptionTemplate) {
			editing = t;
			name.value = t.name;
			preset.value = t.presetId;
			font.value = t.overrides?.font ?? PRESET_DEFAULT;
			position.value = t.overrides?.position ?? PRESET_DEFAULT;
			textColor.value = t.textColor.toLowerCase();
			highlightColor.value = t.highlightColor.toLowerCase();
			submit.textContent = `Save ${t.name}`;
			cancel.hidden = false;
			name.focus();
		},
	};
}
