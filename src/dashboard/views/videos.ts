/** #/videos: the submission form with every config option, and the workspace's recent videos. */
import { ASPECT_RATIOS, CLIP_MODELS, CLIP_SECONDS, CLIP_TYPES, CONFIG_DEFAULTS as D, CUSTOM_PROMPT_MAX, DEFAULT_BACKGROUND_CATEGORY, GENRES, SILENCE_THRESHOLD, SPLIT_RATIO } from "../../worker/domain/config-options";
import { api, errorText } from "../api";
import { loadCaptionTemplates, lookPicker, pickedLook } from "../caption-looks";
import { check, field, h, select } from "../dom";
import { loadWorkspaces, show, workspaceId } from "../shell";

interface VideoSummary {
	id: string;
	title: string;
	status: string;
	createdAt: string;
}

const number = (id: string, min: number, max: number, value: number, step: number | string = 1) => h("input", { id, type: "number", min, max, value, step });

export async function videosView(): Promise<void> {
	const [backgrounds, looks] = await Promise.all([
		api<{ categories: { id: string }[] }>("GET", `/api/backgrounds?workspaceId=${encodeURIComponent(workspaceId())}`).catch(() => ({ categories: [] })),
		loadCaptionTemplates(workspaceId()),
	]);
	const message = h("p", { class: "error", role: "alert" });
	const form = h("form", { class: "card", "aria-labelledby": "submit-title" },
		h("h1", { id: "submit-title", text: "New video" }),
		field("hostedUrl", "Video URL", h("input", { id: "hostedUrl", type: "url", required: true, placeholder: "https://…/talk.mp4" })),
		h("fieldset", {}, h("legend", { text: "Clips" }), h("div", { class: "grid" },
			field("aspectRatio", "Aspect ratio", select("aspectRatio", ASPECT_RATIOS, D.aspectRatio)),
			field("clipDurationMin", "Shortest clip (s)", number("clipDurationMin", CLIP_SECONDS.min, CLIP_SECONDS.max, D.clipDurationMin)),
			field("clipDurationMax", "Longest clip (s)", number("clipDurationMax", CLIP_SECONDS.min, CLIP_SECONDS.max, D.clipDurationMax)),
			field("clipModel", "Ranking model", select("clipModel", CLIP_MODELS, D.clipModel)),
			field("genre", "Genre", select("genre", GENRES, D.genre)),
			field("clipType", "Clip type", select("clipType", CLIP_TYPES, D.clipType)),
			field("language", "Language (2 letters, empty = detect)", h("input", { id: "language", type: "text", maxlength: 2, pattern: "[a-z]{2}" })),
		)),
		h("fieldset", {}, h("legend", { text: "Look" }), h("div", { class: "grid" },
			// Captions are on by default here (a person at the dashboard wants to see them); the API's default stays off.
			check("enableCaptions", "Captions", true),
			check("enableIntroTitle", "Hook title", D.enableIntroTitle),
			check("enableSmartCrop", "Smart crop (follow faces)", D.enableSmartCrop),
			check("enableWatermark", "Watermark", D.enableWatermark),
			check("enableSplitScreen", "Split-screen", D.enableSplitScreen),
			field("splitScreenBgCategoryId", "Background category", select("splitScreenBgCategoryId", backgrounds.categories.map((c) => c.id), DEFAULT_BACKGROUND_CATEGORY)),
			field("splitRatio", "Video share of the height (%)", number("splitRatio", SPLIT_RATIO.min, SPLIT_RATIO.max, D.splitRatio)),
			check("removeSilences", "Remove silences (jump cuts)", D.removeSilences),
			field("silenceThresholdSeconds", "Cut pauses longer than (s)", number("silenceThresholdSeconds", SILENCE_THRESHOLD.min, SILENCE_THRESHOLD.max, D.silenceThresholdSeconds, 0.1)),
		)),
		lookPicker(looks, D.captionTemplateId),
		field("customPrompt", "What to look for (optional)", h("textarea", { id: "customPrompt", rows: 2, maxlength: CUSTOM_PROMPT_MAX })),
		check("skipClipping", "Transcribe only (no clips)", D.skipClipping),
		message,
		h("button", { type: "submit", text: "Make clips" }),
	);
	form.addEventListener("submit", async (event) => {
		event.preventDefault();
		message.textContent = "";
		const value = (id: string) => form.querySelector<HTMLInputElement>(`#${id}`)!.value;
		const checked = (id: string) => form.querySelector<HTMLInputElement>(`#${id}`)!.checked;
		const config = {
			aspectRatio: value("aspectRatio"), clipDurationMin: Number(value("clipDurationMin")), clipDurationMax: Number(value("clipDurationMax")),
			clipModel: value("clipModel"), genre: value("genre"), clipType: value("clipType"), language: value("language") || null,
			enableCaptions: checked("enableCaptions"), captionTemplateId: pickedLook(form), removeSilences: checked("removeSilences"),
			silenceThresholdSeconds: Number(value("silenceThresholdSeconds")), enableIntroTitle: checked("enableIntroTitle"),
			enableSmartCrop: checked("enableSmartCrop"), enableWatermark: checked("enableWatermark"), enableSplitScreen: checked("enableSplitScreen"),
			splitScreenBgCategoryId: checked("enableSplitScreen") ? value("splitScreenBgCategoryId") : null, splitRatio: Number(value("splitRatio")),
			customPrompt: value("customPrompt").trim() || null, skipClipping: checked("skipClipping"),
		};
		const button = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
		button.disabled = true;
		try {
			const submitted = await api<{ video: { id: string } }>("POST", "/api/videos/hosted", { hostedUrl: value("hostedUrl"), workspaceId: workspaceId(), config });
			await loadWorkspaces();
			location.hash = `#/videos/${submitted.video.id}`;
		} catch (error) {
			message.textContent = errorText(error);
		} finally {
			button.disabled = false;
		}
	});
	const list = h("ul", { class: "plain", "aria-label": "Your videos" });
	show(form, h("section", { class: "card", "aria-labelledby": "list-title" }, h("h2", { id: "list-title", text: "Recent videos" }), list));
	const { videos } = await api<{ videos: VideoSummary[] }>("GET", `/api/videos?limit=20&workspaceId=${encodeURIComponent(workspaceId())}`);
	list.replaceChildren(
		...(videos.length
			? videos.map((video) => h("li", {}, h("a", { href: `#/videos/${video.id}`, text: video.title }), " ", h("span", { class: "muted", text: `${video.status.replace("_", " ")} · ${new Date(video.createdAt).toLocaleString()}` })))
			: [h("li", { class: "muted", text: "No videos yet." })]),
	);
}
