/** #/videos: the submission form with every config option, and the workspace's recent videos. */
import { api, errorText } from "../api";
import { loadCaptionTemplates } from "../caption-looks";
import { configFields, NEW_VIDEO_CONFIG, readConfig } from "../config-form";
import { field, h } from "../dom";
import { loadWorkspaces, show, workspaceId } from "../shell";

interface VideoSummary {
	id: string;
	title: string;
	status: string;
	createdAt: string;
}

export async function videosView(): Promise<void> {
	const [backgrounds, looks] = await Promise.all([
		api<{ categories: { id: string }[] }>("GET", `/api/backgrounds?workspaceId=${encodeURIComponent(workspaceId())}`).catch(() => ({ categories: [] })),
		loadCaptionTemplates(workspaceId()),
	]);
	const message = h("p", { class: "error", role: "alert" });
	const form = h("form", { class: "card", "aria-labelledby": "submit-title" },
		h("h1", { id: "submit-title", text: "New video" }),
		field("hostedUrl", "Video URL", h("input", { id: "hostedUrl", type: "url", required: true, placeholder: "https://…/talk.mp4" })),
		...configFields(NEW_VIDEO_CONFIG, backgrounds.categories.map((c) => c.id), looks),
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
