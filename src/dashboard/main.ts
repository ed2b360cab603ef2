/**
 * The dashboard's browser script, built by scripts/build-dashboard.ts into the Worker's static
 * assets (/app/app.js). Views by hash: #/login, #/videos, #/videos/<id>, #/keys, #/looks.
 */
import { DashboardApiError, errorText } from "./api";
import { h } from "./dom";
import { hasWorkspaces, initShell, loadWorkspaces, show } from "./shell";
import { keysView } from "./views/keys";
import { loginView } from "./views/login";
import { looksView } from "./views/looks";
import { videoView } from "./views/video";
import { videosView } from "./views/videos";

async function route(): Promise<void> {
	const hash = location.hash || "#/videos";
	try {
		if (hash === "#/login") return loginView();
		if (!hasWorkspaces()) await loadWorkspaces();
		const video = /^#\/videos\/([\w-]+)$/.exec(hash);
		if (video) return await videoView(video[1]!);
		if (hash === "#/keys") return await keysView();
		if (hash === "#/looks") return await looksView();
		return await videosView();
	} catch (error) {
		if (error instanceof DashboardApiError && error.status === 401) return loginView();
		show(h("p", { class: "error", role: "alert", text: errorText(error) }));
	}
}

initShell(() => void route());
window.addEventListener("hashchange", () => void route());
void route();
