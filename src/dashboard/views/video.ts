/**
 * #/videos/<id>: the stage and progress, live, then the clips (best first) playing in the page, and
 * a form to regenerate them with other settings (POST /api/videos/<id>/reprocess).
 */
import { api, errorText } from "../api";
import { loadCaptionTemplates } from "../caption-looks";
import { configFields, readConfig, type FormConfig } from "../config-form";
import { h } from "../dom";
import { currentView, loadWorkspaces, pollLater, show } from "../shell";

interface Status {
	video: { title: string; status: string; errorMessage: string | null };
	job: { progress: number; queuePosition: number | null };
}

interface Clip {
	title: string;
	score: number;
	duration: number;
	viralityReason: string;
	transcript: string;
	downloadUrl: string;
	thumbnailUrl: string;
}

export async function videoView(id: string): Promise<void> {
	const title = h("h1", { text: "Video" });
	const stage = h("p", { class: "stage", "aria-live": "polite" });
	const bar = h("progress", { max: 100, value: 0, "aria-label": "Progress" });
	const error = h("p", { class: "error", role: "alert" });
	const clipsSection = h("section", { "aria-labelledby": "clips-title" });
	const regenerateSection = h("section", {});
	show(h("section", { class: "card" }, title, stage, bar, error), regenerateSection, clipsSection);
	const generation = currentView();

	const refresh = async (): Promise<void> => {
		const status = await api<Status>("GET", `/api/videos/${encodeURIComponent(id)}/status`);
		if (generation !== currentView()) return;
		title.textContent = status.video.title;
		const waiting = status.job.queuePosition ? ` · waiting for a processing slot (${ordinal(status.job.queuePosition)} in line)` : "";
		stage.textContent = `${status.video.status.replace("_", " ")} · ${Math.round(status.job.progress)}%${waiting}`;
		bar.value = status.job.progress;
		bar.setAttribute("aria-valuetext", stage.textContent);
		if (status.video.status === "failed") error.textContent = status.video.errorMessage ?? "Processing failed.";
		if (status.video.status === "completed" || status.video.status === "failed") {
			await renderRegenerate(id, regenerateSection, () => videoView(id));
			// A failed video has no clips, unless a reprocess of it failed: then it keeps the previous ones.
			return renderClips(id, clipsSection, status.video.status === "failed");
		}
		pollLater(() => refresh().catch((e: unknown) => (error.textContent = errorText(e))), 2000);
	};
	await refresh();
}

const ordinal = (n: number) => `${n}${n % 10 === 1 && n % 100 !== 11 ? "st" : n % 10 === 2 && n % 100 !== 12 ? "nd" : n % 10 === 3 && n % 100 !== 13 ? "rd" : "th"}`;

async function renderClips(id: string, section: HTMLElement, onlyIfAny = false): Promise<void> {
	const { clips, count } = await api<{ clips: Clip[]; count: number }>("GET", `/api/videos/${encodeURIComponent(id)}/clips?limit=100`);
	if (onlyIfAny && count === 0) return;
	section.replaceChildren(
		h("h2", { id: "clips-title", text: `${count}${count === 1 ? " clip" : " clips"}, best first` }),
		h("ul", { class: "plain clips" }, clips.map((clip, n) => h("li", { class: "card clip", "aria-labelledby": `clip-${n}` },
			h("video", { controls: true, preload: "metadata", playsinline: true, src: clip.downloadUrl, poster: clip.thumbnailUrl, "aria-label": `Clip: ${clip.title}` }),
			h("p", {}, h("span", { class: "score", text: String(clip.score) }), h("span", { class: "muted", text: ` / 100 · ${clip.duration.toFixed(1)} s` })),
			h("h3", { id: `clip-${n}`, text: clip.title }),
			h("p", { text: clip.viralityReason }),
			h("details", {}, h("summary", { text: "Transcript" }), h("p", { text: clip.transcript })),
			h("a", { href: clip.downloadUrl, download: `clip-${n + 1}.mp4`, text: "Download MP4" }),
		))),
	);
}

interface Reprocesses {
	reprocesses: { status: string }[];
	next: { minutes: number; freeReprocessesLeft: number };
}

/**
 * "Regenerate clips with these settings": the video's config in the form, what it will cost, and
 * the reprocess; then the page follows it like a new video. Not offered for a video whose first
 * run failed (its files were deleted).
 */
async function renderRegenerate(id: string, section: HTMLElement, onStarted: () => Promise<void>): Promise<void> {
	const path = `/api/videos/${encodeURIComponent(id)}`;
	const [video, history] = await Promise.all([api<{ status: string; workspaceId: string; config: FormConfig | null }>("GET", path), api<Reprocesses>("GET", `${path}/reprocesses`)]);
	if (!video.config || (video.status === "failed" && history.reprocesses.length === 0)) return;
	const [backgrounds, looks] = await Promise.all([
		api<{ categories: { id: string }[] }>("GET", `/api/backgrounds?workspaceId=${encodeURIComponent(video.workspaceId)}`).catch(() => ({ categories: [] })),
		loadCaptionTemplates(video.workspaceId),
	]);
	const cost = history.next.minutes === 0 ? "This one is free" : `This one costs ${history.next.minutes} minute${history.next.minutes === 1 ? "" : "s"}`;
	const message = h("p", { class: "error", role: "alert" });
	const form = h("form", { class: "card", "aria-labelledby": "regenerate-title" },
		h("p", { class: "muted", id: "regenerate-cost", text: `${cost}. The source and transcript are reused (no new download or transcription); the clips below stay until the new ones are ready. The first regeneration of a video is free, each later one costs half its minutes; a failed one is refunded.` }),
		...configFields(video.config, backgrounds.categories.map((c) => c.id), looks, { reprocess: true }),
		message,
		h("button", { type: "submit", text: "Regenerate clips with these settings" }),
	);
	form.addEventListener("submit", async (event) => {
		event.preventDefault();
		message.textContent = "";
		const button = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
		button.disabled = true;
		try {
			await api("POST", `${path}/reprocess`, { config: readConfig(form) });
			await loadWorkspaces();
			await onStarted();
		} catch (error) {
			message.textContent = errorText(error);
			button.disabled = false;
		}
	});
	section.replaceChildren(h("details", { class: "regenerate" }, h("summary", { id: "regenerate-title", text: "Regenerate clips with other settings" }), form));
}
