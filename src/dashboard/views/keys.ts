/** #/keys: create a key (shown once, with a Copy button) and revoke keys of this workspace. */
import { api, call, errorText } from "../api";
import { field, h, toast } from "../dom";
import { show, workspaceId } from "../shell";

export async function keysView(): Promise<void> {
	const message = h("div", { role: "status" });
	const name = h("input", { id: "keyName", type: "text", required: true, maxlength: 100, placeholder: "laptop CLI" });
	const form = h(
		"form",
		{ class: "card", "aria-labelledby": "keys-title" },
		h("h1", { id: "keys-title", text: "API keys" }),
		h("p", {
			class: "muted",
			text: "Keys let scripts, the SDK and the clipforge CLI act for this workspace. A key is shown once.",
		}),
		field("keyName", "Name", name),
		h("button", { type: "submit", text: "Create key" }),
		message,
	);
	const table = h("tbody");
	form.addEventListener("submit", async (event) => {
		event.preventDefault();
		try {
			const created = await call(
				api.POST("/api/api-keys", { body: { workspaceId: workspaceId(), name: name.value } }),
			);
			message.replaceChildren(...newKeyNotice(created.key));
			name.value = "";
			await fillKeys(table);
		} catch (error) {
			message.replaceChildren(h("p", { class: "error", text: errorText(error) }));
		}
	});
	const head = h(
		"thead",
		{},
		h(
			"tr",
			{},
			h("th", { text: "Name" }),
			h("th", { text: "Key" }),
			h("th", { class: "opt", text: "Last used" }),
			h("th", { text: "" }),
		),
	);
	show(
		form,
		h("section", { class: "card" }, h("h2", { text: "Keys of this workspace" }), h("table", {}, head, table)),
	);
	await fillKeys(table);
}

/** A new key, shown this once, with a button that copies it. */
function newKeyNotice(key: string): HTMLElement[] {
	const copy = h("button", {
		type: "button",
		class: "secondary",
		text: "Copy key",
		onclick: async () => {
			await navigator.clipboard.writeText(key).then(
				() => toast("Copied"),
				() => toast("Select the key and copy it"),
			);
		},
	});
	return [
		h("p", { text: "Your new key (it will not be shown again):" }),
		h("p", { class: "key", id: "new-key", text: key }),
		copy,
	];
}

async function fillKeys(table: HTMLElement): Promise<void> {
	const { apiKeys } = await call(api.GET("/api/api-keys"));
	const mine = apiKeys.filter((k) => k.workspaceId === workspaceId() && !k.revokedAt);
	table.replaceChildren(
		...(mine.length
			? mine.map((k) =>
					h(
						"tr",
						{},
						h("td", { text: k.name }),
						h("td", { class: "key", text: `${k.prefix}…` }),
						h("td", {
							class: "opt muted",
							text: k.lastUsedAt ? new Date(k.lastUsedAt).toLocaleString() : "never",
						}),
						h(
							"td",
							{},
							h("button", {
								type: "button",
								class: "secondary",
								"aria-label": `Revoke ${k.name}`,
								text: "Revoke",
								onclick: async () => {
									if (!confirm(`Revoke ${k.name}? Requests with it will fail at once.`)) return;
									await call(api.DELETE("/api/api-keys/{id}", { params: { path: { id: k.id } } }));
									toast("Revoked");
									await fillKeys(table);
								},
							}),
						),
					),
				)
			: [h("tr", {}, h("td", { colspan: 4, class: "muted", text: "No keys yet." }))]),
	);
}
