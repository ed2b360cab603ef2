/**
 * #/videos/<id>: the stage and progress, live, then the whole video's chapters seeking a player of
 * its source (views/chapters.ts), and the clips (best first, filtered and ordered as
 * asked) playing in the page with their favourites, editors and exports, and a form to regenerate
 * them with other settings (POST /api/videos/<id>/reprocess).
 */
import { languageName } from "@clipforge/domain";
import { api, call, errorText, type QueryOf } from "../api";
import { loadCaptionTemplates } from "../caption-looks";
import { configFields, readConfig } from "../config-form";
import { h } from "../dom";
import { currentView, loadWorkspaces, pollLater, show } from "../shell";
import { renderChapters } from "./chapters";
import { backgroundCategories } from "./videos";
import { clipCard } from "./clip-editor";

export async function videoView(id: string): Promise<void> {
	const title = h("h1", { text: "Video" });
	const stage = h("p", { class: "stage", "aria-live": "polite" });
	const bar = h("progress", { max: 100, value: 0, "aria-label": "Progress" });
	const error = h("p", { class: "error", role: "alert" });
	// Why there are fewer clips than the talk has room for, or none (the API's rankingNote).
	const note = h("p", { class: "ranking-note muted" });
	const chaptersSection = h("section", { "aria-labelledby": "chapters-title" });
	const clipsSection = h("section", { "aria-labelledby": "clips-title" });
	const regenerateSection = h("section", {});
	const statusCard = h("section", { class: "card" }, title, stage, bar, error, note);
	show(statusCard, chaptersSection, regenerateSection, clipsSection);
	const generation = currentView();

	const refresh = async (): Promise<void> => {
		const status = await call(api.GET("/api/videos/{id}/status", { params: { path: { id } } }));
		if (generation !== currentView()) return;
		title.textContent = status.video.title;
		const waiting = status.job.queuePosition
			? ` · waiting for a processing slot (${ordinal(status.job.queuePosition)} in line)`
			: "";
		stage.textContent = `${status.video.status.replace("_", " ")} · ${Math.round(status.job.progress)}%${waiting}`;
		bar.value = status.job.progress;
		bar.setAttribute("aria-valuetext", stage.textContent);
		if (status.video.status === "failed") error.textContent = status.video.errorMessage ?? "Processing failed.";
		if (status.video.status === "completed" || status.video.status === "failed") {
			await Promise.all([
				showRankingNote(id, note),
				// Chapters are made from the transcript, which a failed video does not serve.
				status.video.status === "completed" ? renderChapters(id, chaptersSection) : null,
				renderRegenerate(id, regenerateSection, () => videoView(id)),
			]);
			// A failed video has no clips, unless a reprocess of it failed: then it keeps the previous ones.
			return renderClips(id, clipsSection, status.video.status === "failed");
		}
		pollLater(() => refresh().catch((e: unknown) => (error.textContent = errorText(e))), 2000);
	};
	await refresh();
}

async function showRankingNote(id: string, into: HTMLElement): Promise<void> {
	const video = await call(api.GET("/api/videos/{id}", { params: { path: { id } } }));
	into.replaceChildren(
		...[wordsFrom(video), video.rankingNote]
			.filter((line): line is string => Boolean(line))
			.map((line) => h("span", { text: line }, h("br"))),
	);
	into.hidden = into.childElementCount === 0;
}

/** "Hindi, from the supplied captions": the detected (or given) language and where the words came from. */
function wordsFrom(video: {
	language: string | null;
	transcriptSource: string;
	subtitleTrack: { automatic: boolean } | null;
}): string | null {
	const language = video.language ? languageName(video.language) : null;
	const from =
		video.transcriptSource === "captions"
			? "from the supplied captions"
			: video.transcriptSource === "subtitles"
				? `from the source's ${video.subtitleTrack?.automatic ? "automatic " : ""}subtitles (not transcribed)`
				: "transcribed";
	return language ? `${language}, ${from}.` : null;
}

const ordinal = (n: number) =>
	`${n}${n % 10 === 1 && n % 100 !== 11 ? "st" : n % 10 === 2 && n % 100 !== 12 ? "nd" : n % 10 === 3 && n % 100 !== 13 ? "rd" : "th"}`;

interface ClipFilters {
	favorited: boolean;
	minScore: string;
	sortBy: ClipQuery["sortBy"];
	sortOrder: ClipQuery["sortOrder"];
}
type ClipQuery = QueryOf<"/api/videos/{id}/clips">;

const SORTS: [string, string][] = [
	["score", "Score"],
	["startTime", "Time in the video"],
	["duration", "Length"],
	["createdAt", "Created"],
];

/** The clips, with filters and order (the list's own query), the video's exports, and each clip's card. */
/** Bumped by every clip list request: an answer that is not the latest one is dropped (two quick filter changes). */
let clipsRequest = 0;

async function renderClips(
	id: string,
	section: HTMLElement,
	onlyIfAny = false,
	filters: ClipFilters = { favorited: false, minScore: "", sortBy: "score", sortOrder: "desc" },
): Promise<void> {
	const request = ++clipsRequest;
	const query: ClipQuery = { limit: 100, sortBy: filters.sortBy, sortOrder: filters.sortOrder };
	if (filters.favorited) query.favorited = "true";
	if (filters.minScore !== "") query.minScore = Number(filters.minScore);
	const { clips, count } = await call(api.GET("/api/videos/{id}/clips", { params: { path: { id }, query } }));
	if (request !== clipsRequest) return;
	const filtered = filters.favorited || filters.minScore !== "";
	if (onlyIfAny && count === 0 && !filtered) return;
	const reload = (next: Partial<ClipFilters> = {}) => renderClips(id, section, onlyIfAny, { ...filters, ...next });
	const heading = filtered
		? `${count} matching ${count === 1 ? "clip" : "clips"}`
		: `${count}${count === 1 ? " clip" : " clips"}`;
	section.replaceChildren(
		h("h2", { id: "clips-title", text: heading }),
		filterToolbar(filters, reload),
		...(count > 0 ? [exportLinks(id, filters)] : []),
		h(
			"ul",
			{ class: "plain clips" },
			clips.map((clip, n) => clipCard(clip, n, () => reload(), { favoritesOnly: filters.favorited })),
		),
	);
}

/** Favourites only, a minimum score, the order: each change draws the list again. */
function filterToolbar(filters: ClipFilters, reload: (next: ClipFilters) => Promise<void>): HTMLElement {
	const favorites = h("input", { id: "filter-favorites", type: "checkbox", checked: filters.favorited });
	const minScore = h("input", { id: "filter-min-score", type: "number", min: 0, max: 100, value: filters.minScore });
	const sortBy = h(
		"select",
		{ id: "filter-sort-by" },
		SORTS.map(([value, label]) => h("option", { value, selected: value === filters.sortBy, text: label })),
	);
	const order = (value: string, text: string) => h("option", { value, selected: filters.sortOrder === value, text });
	const sortOrder = h("select", { id: "filter-sort-order" }, order("desc", "Descending"), order("asc", "Ascending"));
	// Every control's current value, not only the changed one's: a second change may come before the list is drawn again.
	const current = (): ClipFilters => ({
		favorited: favorites.checked,
		minScore: minScore.value,
		sortBy: sortBy.value as ClipFilters["sortBy"],
		sortOrder: sortOrder.value as ClipFilters["sortOrder"],
	});
	for (const control of [favorites, minScore, sortBy, sortOrder])
		control.addEventListener("change", () => reload(current()));
	const toolbar = h(
		"form",
		{ class: "card filters", role: "search", "aria-label": "Filter clips" },
		h(
			"div",
			{ class: "grid" },
			h("label", { class: "check", for: "filter-favorites" }, favorites, "Favorites only"),
			h("div", {}, h("label", { for: "filter-min-score", text: "Minimum score" }), minScore),
			h("div", {}, h("label", { for: "filter-sort-by", text: "Sort by" }), sortBy),
			h("div", {}, h("label", { for: "filter-sort-order", text: "Order" }), sortOrder),
		),
	);
	toolbar.addEventListener("submit", (event) => event.preventDefault());
	return toolbar;
}

/** The listed clips as a timeline or a ZIP (the list's filters apply). */
function exportLinks(id: string, filters: ClipFilters): HTMLElement {
	const exportQuery = (format: string) => {
		const q = new URLSearchParams({ format });
		if (filters.favorited) q.set("favorited", "true");
		if (filters.minScore !== "") q.set("minScore", filters.minScore);
		return `/api/videos/${encodeURIComponent(id)}/export?${q}`;
	};
	return h(
		"p",
		{ class: "actions exports" },
		h("span", { class: "muted", text: "Export these clips:" }),
		h("a", { href: exportQuery("fcpxml"), download: `${id}-clips.fcpxml`, text: "Final Cut / DaVinci (FCPXML)" }),
		h("a", { href: exportQuery("premiere"), download: `${id}-clips.xml`, text: "Premiere (XML)" }),
		h("a", { href: exportQuery("zip"), download: `${id}-clips.zip`, text: "All MP4s (ZIP)" }),
	);
}

/**
 * "Regenerate clips with these settings": the video's config in the form, what it will cost, and
 * the reprocess; then the page follows it like a new video. Not offered for a video whose first
 * run failed (its files were deleted).
 */
async function renderRegenerate(id: string, section: HTMLElement, onStarted: () => Promise<void>): Promise<void> {
	const path = { path: { id } };
	const [video, history] = await Promise.all([
		call(api.GET("/api/videos/{id}", { params: path })),
		call(api.GET("/api/videos/{id}/reprocesses", { params: path })),
	]);
	if (!video.config || (video.status === "failed" && history.reprocesses.length === 0)) return;
	const [backgrounds, looks] = await Promise.all([
		backgroundCategories(video.workspaceId),
		loadCaptionTemplates(video.workspaceId),
	]);
	const cost =
		history.next.minutes === 0
			? "This one is free"
			: `This one costs ${history.next.minutes} minute${history.next.minutes === 1 ? "" : "s"}`;
	const form = regenerateForm(video.config, { backgroundCategories: backgrounds, looks }, cost);
	form.addEventListener("submit", async (event) => {
		event.preventDefault();
		const message = form.querySelector<HTMLElement>("p.error")!;
		message.textContent = "";
		const button = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
		button.disabled = true;
		try {
			await call(api.POST("/api/videos/{id}/reprocess", { params: path, body: { config: readConfig(form) } }));
			await loadWorkspaces();
			await onStarted();
		} catch (error) {
			message.textContent = errorText(error);
			button.disabled = false;
		}
	});
	section.replaceChildren(
		h(
			"details",
			{ class: "regenerate" },
			h("summary", { id: "regenerate-title", text: "Regenerate clips with other settings" }),
			form,
		),
	);
}

/** The regenerate form: what it costs, the video's config in the fields, a place for the error, the button. */
function regenerateForm(
	config: Parameters<typeof configFields>[0],
	choices: Parameters<typeof configFields>[1],
	cost: string,
): HTMLFormElement {
	return h(
		"form",
		{ class: "card", "aria-labelledby": "regenerate-title" },
		h("p", {
			class: "muted",
			id: "regenerate-cost",
			text: `${cost}. The source and transcript are reused (no new download or transcription); the clips below stay until the new ones are ready. The first regeneration of a video is free, each later one costs half its minutes; a failed one is refunded.`,
		}),
		...configFields(config, choices, { reprocess: true }),
		h("p", { class: "error", role: "alert" }),
		h("button", { type: "submit", text: "Regenerate clips with these settings" }),
	) as HTMLFormElement;
}
