/**
 * The dashboard's browser script (an ES module served at /app/app.js). Plain DOM: every value
 * from the API goes in through textContent/attributes via `h()`, never as HTML. Views by hash:
 * #/login, #/videos, #/videos/<id>, #/keys.
 */
export const DASHBOARD_SCRIPT = String.raw`
const main = document.getElementById("main");
const nav = document.getElementById("nav");
const workspaceSelect = document.getElementById("workspace");
const balance = document.getElementById("balance");
let workspaces = [];
let pollTimer = null;
/** Bumped on every view change, so a status answer arriving after the user left does not start polling again. */
let viewGeneration = 0;

function h(tag, attrs = {}, ...children) {
	const el = document.createElement(tag);
	for (const [k, v] of Object.entries(attrs)) {
		if (v === false || v === null || v === undefined) continue;
		if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
		else if (k === "text") el.textContent = v;
		else el.setAttribute(k, v === true ? "" : String(v));
	}
	for (const child of children.flat()) if (child !== null && child !== undefined && child !== false) el.append(child instanceof Node ? child : String(child));
	return el;
}

function toast(text) {
	const el = document.getElementById("toast");
	el.textContent = text;
	el.classList.add("show");
	setTimeout(() => el.classList.remove("show"), 2500);
}

class ApiError extends Error {
	constructor(status, body) {
		super(body?.error?.message ?? "HTTP " + status);
		this.status = status;
		this.code = body?.error?.code;
		this.details = body?.error?.details;
	}
}

async function api(method, path, body) {
	const response = await fetch(path, {
		method,
		credentials: "same-origin",
		headers: body === undefined ? { accept: "application/json" } : { "content-type": "application/json", accept: "application/json" },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const data = response.status === 204 ? null : await response.json().catch(() => null);
	if (!response.ok) {
		if (response.status === 401 && !path.startsWith("/api/auth/")) location.hash = "#/login";
		throw new ApiError(response.status, data);
	}
	return data;
}

function show(...children) {
	if (pollTimer) clearTimeout(pollTimer);
	pollTimer = null;
	viewGeneration++;
	main.replaceChildren(...children);
	main.focus();
}

function errorText(error) {
	const details = Array.isArray(error.details) ? " (" + error.details.map((d) => d.path + ": " + d.message).join("; ") + ")" : "";
	return error.message + details;
}

const workspaceId = () => workspaceSelect.value;

async function loadWorkspaces() {
	workspaces = await api("GET", "/api/workspaces");
	const current = workspaceSelect.value || localStorage.getItem("clipforge.workspace");
	workspaceSelect.replaceChildren(...workspaces.map((w) => h("option", { value: w.id, text: w.name })));
	if (workspaces.some((w) => w.id === current)) workspaceSelect.value = current;
	renderBalance();
	nav.hidden = false;
}

function renderBalance() {
	const w = workspaces.find((x) => x.id === workspaceId());
	balance.textContent = w ? w.minutesBalance + " minutes left" : "";
}

workspaceSelect.addEventListener("change", () => {
	localStorage.setItem("clipforge.workspace", workspaceId());
	renderBalance();
	route();
});

document.getElementById("logout").addEventListener("click", async () => {
	await api("POST", "/api/auth/logout", {}).catch(() => undefined);
	nav.hidden = true;
	location.hash = "#/login";
});

// ---------------------------------------------------------------- sign in

function loginView() {
	nav.hidden = true;
	const message = h("p", { class: "error", role: "alert" });
	const form = h("form", { class: "card", "aria-labelledby": "login-title" },
		h("h1", { id: "login-title", text: "Sign in" }),
		h("label", { for: "email", text: "Email" }), h("input", { id: "email", type: "email", name: "email", autocomplete: "username", required: true }),
		h("label", { for: "password", text: "Password" }), h("input", { id: "password", type: "password", name: "password", autocomplete: "current-password", required: true }),
		message,
		h("button", { type: "submit", text: "Sign in" }),
	);
	form.addEventListener("submit", async (event) => {
		event.preventDefault();
		message.textContent = "";
		try {
			await api("POST", "/api/auth/login", { email: form.email.value, password: form.password.value });
			await loadWorkspaces();
			location.hash = "#/videos";
		} catch (error) {
			message.textContent = error.status === 401 ? "Wrong email or password." : errorText(error);
		}
	});
	show(form);
	form.email.focus();
}

// ---------------------------------------------------------------- videos

const field = (id, label, input) => h("div", {}, h("label", { for: id, text: label }), input);
const check = (id, label, checked = false) => h("label", { class: "check", for: id }, h("input", { id, type: "checkbox", checked }), label);
const select = (id, options, value) => h("select", { id }, options.map((o) => h("option", { value: o, selected: o === value, text: o })));

async function videosView() {
	const backgrounds = await api("GET", "/api/backgrounds?workspaceId=" + encodeURIComponent(workspaceId())).catch(() => ({ categories: [] }));
	const message = h("p", { class: "error", role: "alert" });
	const form = h("form", { class: "card", "aria-labelledby": "submit-title" },
		h("h1", { id: "submit-title", text: "New video" }),
		field("hostedUrl", "Video URL", h("input", { id: "hostedUrl", type: "url", required: true, placeholder: "https://…/talk.mp4" })),
		h("fieldset", {}, h("legend", { text: "Clips" }), h("div", { class: "grid" },
			field("aspectRatio", "Aspect ratio", select("aspectRatio", ["9:16", "16:9", "1:1"], "9:16")),
			field("clipDurationMin", "Shortest clip (s)", h("input", { id: "clipDurationMin", type: "number", min: 5, max: 600, value: 15 })),
			field("clipDurationMax", "Longest clip (s)", h("input", { id: "clipDurationMax", type: "number", min: 5, max: 600, value: 90 })),
			field("clipModel", "Ranking model", select("clipModel", ["ClipBasic", "ClipPro"], "ClipBasic")),
			field("genre", "Genre", select("genre", ["Auto", "Podcast", "Gaming", "Education", "Entertainment"], "Auto")),
			field("clipType", "Clip type", select("clipType", ["viral-clips", "split-clips"], "viral-clips")),
			field("language", "Language (2 letters, empty = detect)", h("input", { id: "language", type: "text", maxlength: 2, pattern: "[a-z]{2}" })),
		)),
		h("fieldset", {}, h("legend", { text: "Look" }), h("div", { class: "grid" },
			check("enableCaptions", "Captions", true),
			field("captionTemplateId", "Caption style", select("captionTemplateId", ["karaoke", "word-by-word", "sentence"], "karaoke")),
			check("enableIntroTitle", "Hook title"),
			check("enableSmartCrop", "Smart crop (follow faces)"),
			check("enableWatermark", "Watermark", true),
			check("enableSplitScreen", "Split-screen"),
			field("splitScreenBgCategoryId", "Background category", select("splitScreenBgCategoryId", backgrounds.categories.map((c) => c.id), "satisfying")),
			field("splitRatio", "Video share of the height (%)", h("input", { id: "splitRatio", type: "number", min: 10, max: 90, value: 50 })),
		)),
		field("customPrompt", "What to look for (optional)", h("textarea", { id: "customPrompt", rows: 2, maxlength: 2000 })),
		check("skipClipping", "Transcribe only (no clips)"),
		message,
		h("button", { type: "submit", text: "Make clips" }),
	);
	form.addEventListener("submit", async (event) => {
		event.preventDefault();
		message.textContent = "";
		const v = (id) => form.querySelector("#" + id);
		const config = {
			aspectRatio: v("aspectRatio").value, clipDurationMin: Number(v("clipDurationMin").value), clipDurationMax: Number(v("clipDurationMax").value),
			clipModel: v("clipModel").value, genre: v("genre").value, clipType: v("clipType").value, language: v("language").value || null,
			enableCaptions: v("enableCaptions").checked, captionTemplateId: v("captionTemplateId").value, enableIntroTitle: v("enableIntroTitle").checked,
			enableSmartCrop: v("enableSmartCrop").checked, enableWatermark: v("enableWatermark").checked, enableSplitScreen: v("enableSplitScreen").checked,
			splitScreenBgCategoryId: v("enableSplitScreen").checked ? v("splitScreenBgCategoryId").value : null, splitRatio: Number(v("splitRatio").value),
			customPrompt: v("customPrompt").value.trim() || null, skipClipping: v("skipClipping").checked,
		};
		const button = form.querySelector("button[type=submit]");
		button.disabled = true;
		try {
			const submitted = await api("POST", "/api/videos/hosted", { hostedUrl: v("hostedUrl").value, workspaceId: workspaceId(), config });
			await loadWorkspaces();
			location.hash = "#/videos/" + submitted.video.id;
		} catch (error) {
			message.textContent = errorText(error);
		} finally {
			button.disabled = false;
		}
	});
	const list = h("ul", { class: "plain", "aria-label": "Your videos" });
	show(form, h("section", { class: "card", "aria-labelledby": "list-title" }, h("h2", { id: "list-title", text: "Recent videos" }), list));
	const { videos } = await api("GET", "/api/videos?limit=20&workspaceId=" + encodeURIComponent(workspaceId()));
	list.replaceChildren(...(videos.length ? videos.map((video) => h("li", {}, h("a", { href: "#/videos/" + video.id, text: video.title }), " ", h("span", { class: "muted", text: video.status.replace("_", " ") + " · " + new Date(video.createdAt).toLocaleString() }))) : [h("li", { class: "muted", text: "No videos yet." })]));
}

async function videoView(id) {
	const title = h("h1", { text: "Video" });
	const stage = h("p", { class: "stage", "aria-live": "polite" });
	const bar = h("progress", { max: 100, value: 0, "aria-label": "Progress" });
	const error = h("p", { class: "error", role: "alert" });
	const clipsSection = h("section", { "aria-labelledby": "clips-title" });
	show(h("section", { class: "card" }, title, stage, bar, error), clipsSection);
	const generation = viewGeneration;

	const refresh = async () => {
		const status = await api("GET", "/api/videos/" + encodeURIComponent(id) + "/status");
		if (generation !== viewGeneration) return;
		title.textContent = status.video.title;
		stage.textContent = status.video.status.replace("_", " ") + " · " + Math.round(status.job.progress) + "%";
		bar.value = status.job.progress;
		bar.setAttribute("aria-valuetext", stage.textContent);
		if (status.video.status === "failed") error.textContent = status.video.errorMessage ?? "Processing failed.";
		if (status.video.status === "completed") return renderClips(id, clipsSection);
		if (status.video.status !== "failed") pollTimer = setTimeout(() => refresh().catch((e) => (error.textContent = errorText(e))), 2000);
	};
	await refresh();
}

async function renderClips(id, section) {
	const { clips, count } = await api("GET", "/api/videos/" + encodeURIComponent(id) + "/clips?limit=100");
	section.replaceChildren(
		h("h2", { id: "clips-title", text: count + (count === 1 ? " clip" : " clips") + ", best first" }),
		h("ul", { class: "plain clips" }, clips.map((clip, n) => h("li", { class: "card clip", "aria-labelledby": "clip-" + n },
			h("video", { controls: true, preload: "metadata", playsinline: true, src: clip.downloadUrl, poster: clip.thumbnailUrl, "aria-label": "Clip: " + clip.title }),
			h("p", {}, h("span", { class: "score", text: String(clip.score) }), h("span", { class: "muted", text: " / 100 · " + clip.duration.toFixed(1) + " s" })),
			h("h3", { id: "clip-" + n, text: clip.title }),
			h("p", { text: clip.viralityReason }),
			h("details", {}, h("summary", { text: "Transcript" }), h("p", { text: clip.transcript })),
			h("a", { href: clip.downloadUrl, download: "clip-" + (n + 1) + ".mp4", text: "Download MP4" }),
		))),
	);
}

// ---------------------------------------------------------------- API keys

async function keysView() {
	const message = h("div", { role: "status" });
	const form = h("form", { class: "card", "aria-labelledby": "keys-title" },
		h("h1", { id: "keys-title", text: "API keys" }),
		h("p", { class: "muted", text: "Keys let scripts, the SDK and the clipforge CLI act for this workspace. A key is shown once." }),
		field("keyName", "Name", h("input", { id: "keyName", type: "text", required: true, maxlength: 100, placeholder: "laptop CLI" })),
		h("button", { type: "submit", text: "Create key" }),
		message,
	);
	const table = h("tbody");
	form.addEventListener("submit", async (event) => {
		event.preventDefault();
		try {
			const created = await api("POST", "/api/api-keys", { workspaceId: workspaceId(), name: form.querySelector("#keyName").value });
			const copy = h("button", { type: "button", class: "secondary", text: "Copy key", onclick: async () => {
				await navigator.clipboard.writeText(created.key).then(() => toast("Copied"), () => toast("Select the key and copy it"));
			} });
			message.replaceChildren(h("p", { text: "Your new key (it will not be shown again):" }), h("p", { class: "key", id: "new-key", text: created.key }), copy);
			form.querySelector("#keyName").value = "";
			await fillKeys(table);
		} catch (error) {
			message.replaceChildren(h("p", { class: "error", text: errorText(error) }));
		}
	});
	show(form, h("section", { class: "card" }, h("h2", { text: "Keys of this workspace" }), h("table", {}, h("thead", {}, h("tr", {}, h("th", { text: "Name" }), h("th", { text: "Key" }), h("th", { class: "opt", text: "Last used" }), h("th", { text: "" }))), table)));
	await fillKeys(table);
}

async function fillKeys(table) {
	const { apiKeys } = await api("GET", "/api/api-keys");
	const mine = apiKeys.filter((k) => k.workspaceId === workspaceId() && !k.revokedAt);
	table.replaceChildren(...(mine.length ? mine.map((k) => h("tr", {},
		h("td", { text: k.name }),
		h("td", { class: "key", text: k.prefix + "…" }),
		h("td", { class: "opt muted", text: k.lastUsedAt ? new Date(k.lastUsedAt).toLocaleString() : "never" }),
		h("td", {}, h("button", { type: "button", class: "secondary", "aria-label": "Revoke " + k.name, text: "Revoke", onclick: async () => {
			if (!confirm("Revoke " + k.name + "? Requests with it will fail at once.")) return;
			await api("DELETE", "/api/api-keys/" + encodeURIComponent(k.id));
			toast("Revoked");
			await fillKeys(table);
		} })),
	)) : [h("tr", {}, h("td", { colspan: 4, class: "muted", text: "No keys yet." }))]));
}

// ---------------------------------------------------------------- routing

async function route() {
	const hash = location.hash || "#/videos";
	try {
		if (hash === "#/login") return loginView();
		if (!workspaces.length) await loadWorkspaces();
		const video = /^#\/videos\/([\w-]+)$/.exec(hash);
		if (video) return await videoView(video[1]);
		if (hash === "#/keys") return await keysView();
		return await videosView();
	} catch (error) {
		if (error.status === 401) return loginView();
		show(h("p", { class: "error", role: "alert", text: errorText(error) }));
	}
}

window.addEventListener("hashchange", route);
route();
`;
