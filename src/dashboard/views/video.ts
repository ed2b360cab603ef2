/** #/videos/<id>: the stage and progress, live, then the clips (best first) playing in the page. */
import { api, errorText } from "../api";
import { h } from "../dom";
import { currentView, pollLater, show } from "../shell";

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
	show(h("section", { class: "card" }, title, stage, bar, error), clipsSection);
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
		if (status.video.status === "completed") return renderClips(id, clipsSection);
		if (status.video.status !== "failed") pollLater(() => refresh().catch((e: unknown) => (error.textContent = errorText(e))), 2000);
	};
	await refresh();
}

const ordinal = (n: number) => `${n}${n % 10 === 1 && n % 100 !== 11 ? "st" : n % 10 === 2 && n % 100 !== 12 ? "nd" : n % 10 === 3 && n % 100 !== 13 ? "rd" : "th"}`;

async function renderClips(id: string, section: HTMLElement): Promise<void> {
	const { clips, count } = await api<{ clips: Clip[]; count: number }>("GET", `/api/videos/${encodeURIComponent(id)}/clips?limit=100`);
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
