/** DOM helpers. Every value from the API goes in through textContent or attributes, never as HTML. */

type Child = Node | string | number | null | undefined | false;
export type Attrs = Record<string, string | number | boolean | null | undefined | ((event: Event) => unknown)>;

/**
 * @example h("a", { href: "#/videos", text: "Videos" })
 */
export function h<K extends keyof HTMLElementTagNameMap>(
	tag: K,
	attrs: Attrs = {},
	...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
	const el = document.createElement(tag);
	for (const [k, v] of Object.entries(attrs)) {
		if (v === false || v === null || v === undefined) continue;
		if (typeof v === "function") el.addEventListener(k.slice(2), v);
		else if (k === "text") el.textContent = String(v);
		else el.setAttribute(k, v === true ? "" : String(v));
	}
	for (const child of children.flat())
		if (child !== null && child !== undefined && child !== false)
			el.append(child instanceof Node ? child : String(child));
	return el;
}

/** The element with this id, which the page is known to have. */
export const byId = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

export function toast(text: string): void {
	const el = byId("toast");
	el.textContent = text;
	el.classList.add("show");
	setTimeout(() => el.classList.remove("show"), 2500);
}

export const field = (id: string, label: string, input: HTMLElement) =>
	h("div", {}, h("label", { for: id, text: label }), input);
export const check = (id: string, label: string, checked = false) =>
	h("label", { class: "check", for: id }, h("input", { id, type: "checkbox", checked }), label);
export const select = (id: string, options: readonly string[], value: string) =>
	h(
		"select",
		{ id },
		options.map((o) => h("option", { value: o, selected: o === value, text: o })),
	);
