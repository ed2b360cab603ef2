/**
 * A clip's card on the video page: the clip playing, its favourite toggle, caption downloads, and
 * an editor (trim with a preview in the clip's own player, title, caption words) that saves with
 * PATCH /api/clips/<id>; a change that re-renders the clip is followed until the new one is ready.
 */
import { api, call, errorText, type Schemas } from "../api";
import { h, toast } from "../dom";

export type Clip = Schemas["Clip"];
type ClipDetail = Schemas["ClipDetail"];

const clipPath = (id: string) => `/api/clips/${encodeURIComponent(id)}`;
const getClip = (id: string) => call(api.GET("/api/clips/{id}", { params: { path: { id } } }));
const updateClip = (id: string, changes: Schemas["UpdateClip"]) =>
	call(api.PATCH("/api/clips/{id}", { params: { path: { id } }, body: changes }));

/** One clip's card; `onChanged` reloads the list (after a re-render, or a favourite when the list shows favourites only). */
export function clipCard(
	clip: Clip,
	n: number,
	onChanged: () => Promise<void>,
	options: { favoritesOnly?: boolean } = {},
): HTMLElement {
	const video = h("video", {
		controls: true,
		preload: "metadata",
		playsinline: true,
		src: clip.downloadUrl,
		poster: clip.thumbnailUrl,
		"aria-label": `Clip: ${clip.title}`,
	});
	const favorite = favoriteButton(clip, onChanged, options);
	const status =
		clip.status === "generating" ? h("p", { class: "badge", role: "status", text: "Rendering the edit…" }) : null;
	const editError = clip.editError ? h("p", { class: "error", text: clip.editError }) : null;
	return h(
		"li",
		{ class: "card clip", "aria-labelledby": `clip-${n}`, "data-clip-id": clip.id },
		video,
		h(
			"p",
			{},
			h("span", { class: "score", text: String(clip.score) }),
			h("span", {
				class: "muted",
				text: ` / 100 · ${clip.duration.toFixed(1)} s · ${fmt(clip.startTime)}–${fmt(clip.endTime)}`,
			}),
		),
		h("h3", { id: `clip-${n}`, text: clip.title }),
		status,
		editError,
		h("p", { text: clip.viralityReason }),
		h("details", {}, h("summary", { text: "Transcript" }), h("p", { text: clip.transcript })),
		h(
			"p",
			{ class: "actions" },
			favorite,
			h("a", { href: clip.downloadUrl, download: `clip-${n + 1}.mp4`, text: "Download MP4" }),
			h("a", { href: `${clipPath(clip.id)}/captions?format=srt`, download: `${clip.id}.srt`, text: "SRT" }),
			h("a", { href: `${clipPath(clip.id)}/captions?format=vtt`, download: `${clip.id}.vtt`, text: "VTT" }),
		),
		editor(clip, n, video, onChanged),
	);
}

/** The clip's favourite toggle; unfavouriting reloads the list when it shows favourites only. */
function favoriteButton(
	clip: Clip,
	onChanged: () => Promise<void>,
	options: { favoritesOnly?: boolean },
): HTMLButtonElement {
	const favorite = h("button", {
		type: "button",
		class: "secondary favorite",
		"aria-pressed": String(clip.favorited),
		text: clip.favorited ? "★ Favorite" : "☆ Favorite",
	});
	favorite.addEventListener("click", async () => {
		const next = favorite.getAttribute("aria-pressed") !== "true";
		favorite.disabled = true;
		try {
			await updateClip(clip.id, { favorited: next });
			favorite.setAttribute("aria-pressed", String(next));
			favorite.textContent = next ? "★ Favorite" : "☆ Favorite";
			if (options.favoritesOnly && !next) await onChanged();
		} catch (error) {
			toast(errorText(error));
		} finally {
			favorite.disabled = false;
		}
	});
	return favorite;
}

/** "Edit clip": trim, title and caption words; loaded when opened (the words come with GET /api/clips/<id>). */
function editor(clip: Clip, n: number, video: HTMLVideoElement, onChanged: () => Promise<void>): HTMLElement {
	const details = h("details", { class: "editor" }, h("summary", { text: "Edit clip" }));
	let loaded = false;
	details.addEventListener("toggle", async () => {
		if (!details.open || loaded) return;
		loaded = true;
		try {
			details.append(await editorForm(await getClip(clip.id), n, video, onChanged));
		} catch (error) {
			details.append(h("p", { class: "error", role: "alert", text: errorText(error) }));
		}
	});
	return details;
}

interface EditorFields {
	start: HTMLInputElement;
	end: HTMLInputElement;
	title: HTMLInputElement;
	words: HTMLTextAreaElement;
}

/**
 * The changes the fields ask for, against the clip as loaded; a string says why they cannot be sent
 * (a word count that no longer matches, words corrected together with a trim, nothing changed).
 */
function changesOf(clip: ClipDetail, fields: EditorFields): Schemas["UpdateClip"] | string {
	const changes: Schemas["UpdateClip"] = {};
	const original = clip.words.map((w) => w.word.trim());
	const [newStart, newEnd] = [Number(fields.start.value), Number(fields.end.value)];
	if (Math.abs(newStart - clip.startTime) > 0.005) changes.startTime = newStart;
	if (Math.abs(newEnd - clip.endTime) > 0.005) changes.endTime = newEnd;
	if (fields.title.value.trim() !== clip.title) changes.title = fields.title.value.trim();
	const edited = fields.words.value.trim().split(/\s+/).filter(Boolean);
	if (edited.join(" ") !== original.join(" ")) {
		if (edited.length !== original.length)
			return `Keep ${original.length} words (one per spoken word): ${edited.length} given.`;
		if (changes.startTime !== undefined || changes.endTime !== undefined)
			return "Save the trim first, then correct the words of the new cut.";
		changes.captionWords = edited.flatMap((word, index) => (word === original[index] ? [] : [{ index, word }]));
	}
	return Object.keys(changes).length === 0 ? "Nothing changed." : changes;
}

/** Saves the changes; a change that renders the clip again is followed until the new one is ready. */
async function save(clipId: string, changes: Schemas["UpdateClip"], onChanged: () => Promise<void>): Promise<void> {
	const saved = await updateClip(clipId, changes);
	if (saved.status === "generating") {
		toast("Rendering the edited clip…");
		await untilRendered(clipId);
	} else {
		toast("Saved");
	}
	await onChanged();
}

/** The editor's inputs, filled with the clip's trim, title and caption words. */
function editorFields(clip: ClipDetail, id: (name: string) => string): EditorFields {
	return {
		start: h("input", { id: id("start"), type: "number", step: "0.01", min: 0, value: clip.startTime }),
		end: h("input", { id: id("end"), type: "number", step: "0.01", min: 0, value: clip.endTime }),
		title: h("input", { id: id("title"), type: "text", maxlength: 200, value: clip.title }),
		words: h("textarea", { id: id("words"), rows: 4, spellcheck: true }),
	};
}

async function editorForm(
	clip: ClipDetail,
	n: number,
	video: HTMLVideoElement,
	onChanged: () => Promise<void>,
): Promise<HTMLElement> {
	const id = (name: string) => `edit-${n}-${name}`;
	const fields = editorFields(clip, id);
	fields.words.value = clip.words.map((w) => w.word.trim()).join(" ");
	const message = h("p", { class: "error", role: "alert" });
	const preview = h("button", { type: "button", class: "secondary", text: "Preview trim" });
	const submit = h("button", { type: "submit", text: "Save" });
	preview.addEventListener("click", () =>
		previewTrim(video, clip, Number(fields.start.value), Number(fields.end.value)),
	);
	const labelled = (name: keyof EditorFields, text: string) =>
		h("div", {}, h("label", { for: id(name), text }), fields[name]);
	const form = h(
		"form",
		{ class: "edit-clip" },
		h(
			"div",
			{ class: "grid" },
			labelled("start", "Start (s in the video)"),
			labelled("end", "End (s in the video)"),
		),
		h("p", {
			class: "muted",
			text: "Times snap to the nearest word. A new trim or new caption words render the clip again (free, up to 20 times per clip).",
		}),
		labelled("title", "Title"),
		labelled("words", "Caption words (fix spelling; keep one word per word)"),
		message,
		h("p", { class: "actions" }, preview, submit),
	);
	form.addEventListener("submit", async (event) => {
		event.preventDefault();
		const changes = changesOf(clip, fields);
		message.textContent = typeof changes === "string" ? changes : "";
		if (typeof changes === "string") return;
		submit.disabled = true;
		try {
			await save(clip.id, changes, onChanged);
		} catch (error) {
			message.textContent = errorText(error);
			submit.disabled = false;
		}
	});
	return form;
}

/**
 * Plays the new in/out in the clip's own player: the rendered clip covers the old cut, so the
 * preview seeks to where the new start falls in it and stops at the new end (both clamped to it).
 */
function previewTrim(video: HTMLVideoElement, clip: Clip, start: number, end: number): void {
	const from = Math.min(Math.max(0, start - clip.startTime), clip.duration);
	const to = Math.min(Math.max(from, end - clip.startTime), clip.duration);
	video.dataset.previewFrom = from.toFixed(2);
	video.dataset.previewTo = to.toFixed(2);
	const stop = () => {
		if (video.currentTime >= to) {
			video.pause();
			video.removeEventListener("timeupdate", stop);
		}
	};
	video.addEventListener("timeupdate", stop);
	video.currentTime = from;
	video.play().catch(() => undefined);
}

async function untilRendered(clipId: string): Promise<void> {
	for (;;) {
		await new Promise((resolve) => setTimeout(resolve, 1500));
		const clip = await getClip(clipId);
		if (clip.status !== "generating") {
			if (clip.editError) throw new Error(clip.editError);
			return;
		}
	}
}

const fmt = (s: number) => `${Math.floor(s / 60)}:${(s % 60).toFixed(1).padStart(4, "0")}`;
