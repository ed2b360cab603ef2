/**
 * A completed video's chapters on its page: the summary, the source video in a player, and each
 * chapter (start, title, summary) as a button that seeks the player to its start; the chapter
 * playing is marked. A video too short for chapters shows why (the API's `note`), not an empty list.
 */
import { api, call, errorText, type Schemas } from "../api";
import { h } from "../dom";
// Pure formatting shared with the show notes (the Worker's domain), so both write times alike.
import { timestampOf } from "@clipforge/domain";

type Chapter = Schemas["Chapter"];

/** Draws the chapters into `section`; a failure shows there too, and leaves the rest of the page alone. */
export async function renderChapters(id: string, section: HTMLElement): Promise<void> {
	try {
		await drawChapters(id, section);
	} catch (error) {
		section.replaceChildren(h("p", { class: "error", role: "alert", text: `No chapters: ${errorText(error)}` }));
	}
}

async function drawChapters(id: string, section: HTMLElement): Promise<void> {
	const path = { params: { path: { id } } };
	const answer = await call(api.GET("/api/videos/{id}/chapters", path));
	const heading = h("h2", { id: "chapters-title", text: "Chapters" });
	if (answer.chapters.length === 0) {
		const why = answer.note ?? "This video has no chapters.";
		section.replaceChildren(h("div", { class: "card" }, heading, h("p", { class: "chapters-note", text: why })));
		return;
	}
	const { player, startsAt, problem } = await sourcePlayer(id);
	const list = chapterList(answer.chapters, player, startsAt);
	section.replaceChildren(
		h(
			"div",
			{ class: "card" },
			heading,
			h("p", { class: "muted", text: answer.summary }),
			h("div", { class: "chapters-layout" }, player ?? h("p", { class: "error", text: problem }), list),
		),
	);
}

/**
 * A player of the stored source (a signed link, valid one hour), or why there is none. Only the
 * video's time frame is kept: the file's 0:00 is `startsAt` of the source.
 */
async function sourcePlayer(
	id: string,
): Promise<{ player: HTMLVideoElement | null; startsAt: number; problem: string }> {
	try {
		const source = await call(api.GET("/api/videos/{id}/source-url", { params: { path: { id } } }));
		const player = h("video", {
			class: "source-player",
			src: source.url,
			controls: true,
			preload: "metadata",
			playsinline: true,
			"aria-label": "Source video",
		});
		return { player, startsAt: source.startsAt, problem: "" };
	} catch (error) {
		return { player: null, startsAt: 0, problem: `The video cannot be played here: ${errorText(error)}` };
	}
}

/** The chapters as buttons that seek `player`, whose file begins at `startsAt` of the source (plain lines when there is none to seek). */
function chapterList(chapters: Chapter[], player: HTMLVideoElement | null, startsAt: number): HTMLElement {
	const withHours = chapters.some((c) => c.end >= 3600);
	const buttons: HTMLButtonElement[] = [];
	const items = chapters.map((chapter) => {
		const label = [
			h("span", { class: "chapter-time", text: timestampOf(chapter.start, withHours) }),
			" ",
			h("span", { class: "chapter-title", text: chapter.title }),
		];
		const button = h("button", { type: "button", class: "chapter", "data-start": chapter.start }, ...label);
		if (player) button.addEventListener("click", () => seek(player, Math.max(0, chapter.start - startsAt)));
		else button.disabled = true;
		buttons.push(button);
		return h("li", {}, button, h("p", { class: "muted chapter-summary", text: chapter.summary }));
	});
	if (player)
		player.addEventListener("timeupdate", () => markPlaying(buttons, chapters, startsAt + player.currentTime));
	return h("ol", { class: "plain chapters", "aria-labelledby": "chapters-title" }, items);
}

/** Plays from `seconds`; a player that has not read the file's metadata yet seeks once it has. */
function seek(player: HTMLVideoElement, seconds: number): void {
	if (player.readyState >= HTMLMediaElement.HAVE_METADATA) player.currentTime = seconds;
	else player.addEventListener("loadedmetadata", () => (player.currentTime = seconds), { once: true });
	// A browser may refuse to play (no sound allowed yet): the seek still holds.
	player.play().catch(() => undefined);
}

/** The chapter holding `time` is the current one (aria-current), for the eye and for screen readers. */
function markPlaying(buttons: HTMLButtonElement[], chapters: Chapter[], time: number): void {
	let playing = 0;
	chapters.forEach((c, i) => {
		if (c.start <= time) playing = i;
	});
	buttons.forEach((b, i) => {
		if (i === playing) b.setAttribute("aria-current", "true");
		else b.removeAttribute("aria-current");
	});
}
