/** #/videos: the submission form (a URL, or a video file dropped or chosen) with every config option, and the workspace's recent videos. */
import { api, call, errorText } from "../api";
import { loadCaptionTemplates } from "../caption-looks";
import { forgetUpload, uploadFile, type UploadProgress } from "../upload";
import { configFields, NEW_VIDEO_CONFIG, readConfig } from "../config-form";
import { field, h } from "../dom";
import { loadWorkspaces, show, workspaceId } from "../shell";

export async function videosView(): Promise<void> {
	const [backgrounds, looks] = await Promise.all([
		backgroundCategories(workspaceId()),
		loadCaptionTemplates(workspaceId()),
	]);
	const message = h("p", { class: "error", role: "alert" });
	const source = sourceFields();
	const form = h(
		"form",
		{ class: "card", "aria-labelledby": "submit-title" },
		h("h1", { id: "submit-title", text: "New video" }),
		source.element,
		...configFields(NEW_VIDEO_CONFIG, { backgroundCategories: backgrounds, looks }),
		message,
		h("button", { type: "submit", text: "Make clips" }),
	);
	form.addEventListener("submit", async (event) => {
		event.preventDefault();
		message.textContent = "";
		const value = (id: string) => form.querySelector<HTMLInputElement>(`#${id}`)!.value;
		const config = readConfig(form);
		const button = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
		button.disabled = true;
		const file = source.file();
		try {
			const captions = await source.captions();
			const submitted = file
				? await submitFile(file, config, source.progress, captions)
				: await submitUrl(value("hostedUrl"), config, captions);
			await loadWorkspaces();
			location.hash = `#/videos/${submitted.video.id}`;
		} catch (error) {
			message.textContent =
				errorText(error) + (file ? " Submit again to resume the upload where it stopped." : "");
		} finally {
			button.disabled = false;
		}
	});
	const list = h("ul", { class: "plain", "aria-label": "Your videos" });
	show(
		form,
		h(
			"section",
			{ class: "card", "aria-labelledby": "list-title" },
			h("h2", { id: "list-title", text: "Recent videos" }),
			list,
		),
	);
	await fillRecentVideos(list);
}

type Captions = { text: string } | undefined;

const submitUrl = (hostedUrl: string, config: ReturnType<typeof readConfig>, captions: Captions) =>
	call(api.POST("/api/videos/hosted", { body: { hostedUrl, workspaceId: workspaceId(), config, captions } }));

/** Uploads the file (resuming an interrupted upload of it), then submits it. */
async function submitFile(
	file: File,
	config: ReturnType<typeof readConfig>,
	progress: (p: UploadProgress | null) => void,
	captions: Captions,
) {
	const uploadId = await uploadFile(file, workspaceId(), progress);
	progress(null);
	const submitted = await call(
		api.POST("/api/videos/upload", { body: { uploadId, workspaceId: workspaceId(), config, captions } }),
	);
	forgetUpload(file);
	return submitted;
}

/** The workspace's 20 most recent videos, each a link to its page. */
async function fillRecentVideos(list: HTMLElement): Promise<void> {
	const { videos } = await call(
		api.GET("/api/videos", { params: { query: { limit: 20, workspaceId: workspaceId() } } }),
	);
	list.replaceChildren(
		...(videos.length
			? videos.map((video) =>
					h(
						"li",
						{},
						h("a", { href: `#/videos/${video.id}`, text: video.title }),
						" ",
						h("span", {
							class: "muted",
							text: `${video.status.replace("_", " ")} · ${new Date(video.createdAt).toLocaleString()}`,
						}),
					),
				)
			: [h("li", { class: "muted", text: "No videos yet." })]),
	);
}

/** The split-screen background categories of the workspace (none when the list cannot be read). */
export async function backgroundCategories(workspaceId: string): Promise<string[]> {
	const list = await call(api.GET("/api/backgrounds", { params: { query: { workspaceId } } })).catch(() => ({
		categories: [],
	}));
	return list.categories.map((c) => c.id);
}

/**
 * The video's source: a URL, or a file dropped on (or chosen in) the drop zone, with the upload's
 * progress bar. A chosen file wins over the URL, which is then not required.
 */
function sourceFields() {
	let chosen: File | null = null;
	const url = h("input", { id: "hostedUrl", type: "url", required: true, placeholder: "https://…/talk.mp4" });
	const picker = h("input", { id: "sourceFile", type: "file", accept: "video/*", class: "visually-hidden" });
	const chosenText = h("span", { id: "chosenFile", class: "muted", text: "MP4, MOV, MKV, WebM …" });
	const clear = h("button", { type: "button", class: "link", text: "Remove", hidden: true });
	const progress = { id: "uploadProgress", max: 100, value: 0, hidden: true, "aria-label": "Upload progress" };
	const bar = h("progress", progress);
	const barText = h("p", { id: "uploadStatus", class: "muted", "aria-live": "polite" });
	const zone = h(
		"label",
		{ class: "dropzone", for: "sourceFile", id: "dropzone" },
		h("strong", { text: "Drop a video file here" }),
		" or choose one",
		h("br"),
		chosenText,
		picker,
	);
	const choose = (file: File | null) => {
		chosen = file;
		url.required = !file;
		url.disabled = Boolean(file);
		clear.hidden = !file;
		zone.classList.toggle("has-file", Boolean(file));
		chosenText.textContent = file ? `${file.name} (${mib(file.size)} MiB)` : "MP4, MOV, MKV, WebM …";
		if (!file) picker.value = "";
	};
	picker.addEventListener("change", () => choose(picker.files?.[0] ?? null));
	clear.addEventListener("click", () => choose(null));
	acceptDrops(zone, choose);
	const captions = h("input", {
		id: "captionsFile",
		type: "file",
		accept: ".srt,.vtt,text/vtt,application/x-subrip",
	});
	const element = h(
		"fieldset",
		{},
		h("legend", { text: "Video" }),
		field("hostedUrl", "Video URL", url),
		h("p", { class: "muted", text: "or upload a file" }),
		zone,
		clear,
		bar,
		barText,
		field(
			"captionsFile",
			"Its captions (SRT or WebVTT, optional: read instead of transcribing, any language)",
			captions,
		),
	);
	return {
		element,
		file: () => chosen,
		/** The chosen captions file's text (the API reads it at submission and says what is wrong with it). */
		captions: async (): Promise<Captions> => {
			const file = captions.files?.[0];
			return file ? { text: await file.text() } : undefined;
		},
		progress: (p: UploadProgress | null) => showProgress(bar, barText, p),
	};
}

/** A file dropped on the zone is chosen; the zone shows when one is dragged over it. */
function acceptDrops(zone: HTMLElement, choose: (file: File) => void): void {
	zone.addEventListener("dragover", (event) => {
		event.preventDefault();
		zone.classList.add("over");
	});
	zone.addEventListener("dragleave", () => zone.classList.remove("over"));
	zone.addEventListener("drop", (event) => {
		event.preventDefault();
		zone.classList.remove("over");
		const file = event.dataTransfer?.files[0];
		if (file) choose(file);
	});
}

/** The upload's bar and words: sent and total MiB while it runs, "starting" once it is done (null). */
function showProgress(bar: HTMLProgressElement, text: HTMLElement, p: UploadProgress | null): void {
	bar.hidden = !p;
	if (!p) {
		text.textContent = "Uploaded; starting…";
		return;
	}
	const percent = Math.floor((p.sentBytes / p.totalBytes) * 100);
	bar.value = percent;
	text.textContent = `${p.resumed ? "Resuming upload" : "Uploading"}: ${percent}% (${mib(p.sentBytes)} of ${mib(p.totalBytes)} MiB)`;
}

const mib = (bytes: number) => (bytes / 1024 ** 2).toFixed(1);
