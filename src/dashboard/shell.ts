/** The page around the views: the main area, the navigation, the workspace picker and its balance. */
import { api, call, type Schemas } from "./api";
import { byId, h } from "./dom";

export const main = byId("main");
export const nav = byId("nav");
const workspaceSelect = byId<HTMLSelectElement>("workspace");
const balance = byId("balance");
let workspaces: Schemas["Workspace"][] = [];
let pollTimer: ReturnType<typeof setTimeout> | null = null;
/** Bumped on every view change, so a status answer arriving after the user left does not start polling again. */
let viewGeneration = 0;

export const workspaceId = () => workspaceSelect.value;
export const currentView = () => viewGeneration;
export const hasWorkspaces = () => workspaces.length > 0;

/** Polls `next` after `ms` while this view is shown. */
export function pollLater(next: () => void, ms: number): void {
	pollTimer = setTimeout(next, ms);
}

export function show(...children: Node[]): void {
	if (pollTimer) clearTimeout(pollTimer);
	pollTimer = null;
	viewGeneration++;
	main.replaceChildren(...children);
	main.focus();
}

export async function loadWorkspaces(): Promise<void> {
	workspaces = await call(api.GET("/api/workspaces"));
	const current = workspaceSelect.value || localStorage.getItem("clipforge.workspace");
	workspaceSelect.replaceChildren(...workspaces.map((w) => h("option", { value: w.id, text: w.name })));
	if (current && workspaces.some((w) => w.id === current)) workspaceSelect.value = current;
	renderBalance();
	nav.hidden = false;
}

function renderBalance(): void {
	const w = workspaces.find((x) => x.id === workspaceId());
	balance.textContent = w ? `${w.minutesBalance} minutes left` : "";
}

/** Wires the workspace picker and sign-out; `onChange` re-renders the current view. */
export function initShell(onChange: () => void): void {
	workspaceSelect.addEventListener("change", () => {
		localStorage.setItem("clipforge.workspace", workspaceId());
		renderBalance();
		onChange();
	});
	byId("logout").addEventListener("click", async () => {
		await call(api.POST("/api/auth/logout")).catch(() => undefined);
		nav.hidden = true;
		location.hash = "#/login";
	});
}
