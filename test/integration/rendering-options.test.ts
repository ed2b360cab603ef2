/**
 * The rendering options end to end on the Worker's side: the background library and workspace
 * watermarks (routes, R2, validation), and what the workflow asks the render tier to draw for each
 * config (captions from the stored transcript, hook titles, watermark, split-screen, smart crop).
 * The frames themselves are checked in containers/render/test/rendering.test.ts with real ffmpeg.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
	BUILTIN_BACKGROUNDS,
	presetLook,
	renderJobs,
	RenderClipRequest,
	type RenderClipSpec,
} from "@clipforge/contract";
import { balanceOf, createWorkspace } from "../helpers/accounts";
import { call, submitAndProcess } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";

const fake = useFakeRenderTier({ introspect: false });
const url = (name: string) => `https://media.example.com/${name}-${crypto.randomUUID()}`;

function renderRequests(videoId: string): RenderClipSpec[] {
	return fake()
		.calls.filter(
			(c) => c.path === renderJobs.renderClip.path && (c.body as { videoId: string }).videoId === videoId,
		)
		.map((c) => RenderClipRequest.parse(c.body));
}

describe("GET/POST/DELETE /api/backgrounds", () => {
	it("lists the built-in library by category, imports a workspace's own video, and deletes it", async () => {
		const { apiKey, workspaceId } = await createWorkspace();
		const listed = await call("GET", "/api/backgrounds", { key: apiKey });
		expect(listed.status).toBe(200);
		expect(listed.body.categories.map((c: { id: string }) => c.id)).toEqual([
			"abstract",
			"satisfying",
			"retro",
			"custom",
		]);
		expect(listed.body.backgrounds.filter((b: { builtIn: boolean }) => b.builtIn)).toHaveLength(
			BUILTIN_BACKGROUNDS.length,
		);

		const source = url("minecraft-parkour.mp4");
		fake().media.add(source);
		const created = await call("POST", "/api/backgrounds", { key: apiKey, body: { url: source, name: "Parkour" } });
		expect(created.status).toBe(201);
		expect(created.body).toMatchObject({
			id: expect.stringMatching(/^bg_/),
			name: "Parkour",
			categoryId: "custom",
			builtIn: false,
		});
		expect(await env.MEDIA.head(`backgrounds/${workspaceId}/${created.body.id}.mp4`)).not.toBeNull();
		const after = await call("GET", "/api/backgrounds", { key: apiKey });
		expect(after.body.backgrounds.at(-1)).toMatchObject({ id: created.body.id, builtIn: false });

		// Another workspace neither sees nor deletes it.
		const other = await createWorkspace();
		expect(
			(await call("GET", "/api/backgrounds", { key: other.apiKey })).body.backgrounds.some(
				(b: { id: string }) => b.id === created.body.id,
			),
		).toBe(false);
		expect((await call("DELETE", `/api/backgrounds/${created.body.id}`, { key: other.apiKey })).status).toBe(404);

		expect((await call("DELETE", `/api/backgrounds/${created.body.id}`, { key: apiKey })).status).toBe(204);
		expect(await env.MEDIA.head(`backgrounds/${workspaceId}/${created.body.id}.mp4`)).toBeNull();
		expect((await call("DELETE", `/api/backgrounds/${created.body.id}`, { key: apiKey })).status).toBe(404);
	});

	it("refuses what cannot be a background: not a video (422), bad URL (400), unknown category (400), unknown field (400)", async () => {
		const { apiKey, workspaceId } = await createWorkspace();
		const notVideo = await call("POST", "/api/backgrounds", { key: apiKey, body: { url: url("notes.txt") } });
		expect(notVideo.status).toBe(422);
		expect(notVideo.body.error.code).toBe("unsupported_source");
		expect(
			(await call("POST", "/api/backgrounds", { key: apiKey, body: { url: "ftp://x.example.com/a.mp4" } })).body
				.error.code,
		).toBe("invalid_url");
		const source = url("ok.mp4");
		fake().media.add(source);
		const badCategory = await call("POST", "/api/backgrounds", {
			key: apiKey,
			body: { url: source, categoryId: "nope" },
		});
		expect(badCategory.status).toBe(400);
		expect(badCategory.body.error.details).toEqual([{ path: "categoryId", message: "unknown category" }]);
		expect(
			(await call("POST", "/api/backgrounds", { key: apiKey, body: { url: source, colour: "red" } })).status,
		).toBe(400);
		expect((await env.MEDIA.list({ prefix: `backgrounds/${workspaceId}/` })).objects).toHaveLength(0);
	});
});

describe("workspace watermark", () => {
	it("is the default mark until set to text or an image; a bad image keeps the current one", async () => {
		const { apiKey, workspaceId } = await createWorkspace();
		const path = `/api/workspaces/${workspaceId}/watermark`;
		expect((await call("GET", path, { key: apiKey })).body).toEqual({ workspaceId, type: "default", text: null });
		expect((await call("PUT", path, { key: apiKey, body: { type: "text", text: "  @mychannel " } })).body).toEqual({
			workspaceId,
			type: "text",
			text: "@mychannel",
		});

		const logo = url("logo.png");
		fake().media.add(logo);
		const image = await call("PUT", path, { key: apiKey, body: { type: "image", imageUrl: logo } });
		expect(image.body).toEqual({ workspaceId, type: "image", text: null });
		const [stored] = (await env.MEDIA.list({ prefix: `watermarks/${workspaceId}/` })).objects;
		expect(stored).toBeDefined();

		const broken = await call("PUT", path, { key: apiKey, body: { type: "image", imageUrl: url("broken.png") } });
		expect(broken.status).toBe(422);
		expect((await call("GET", path, { key: apiKey })).body.type).toBe("image");

		expect((await call("PUT", path, { key: apiKey, body: { type: "default" } })).body.type).toBe("default");
		// The replaced image is not kept.
		expect((await env.MEDIA.list({ prefix: `watermarks/${workspaceId}/` })).objects).toHaveLength(0);
		expect((await call("PUT", path, { key: apiKey, body: { type: "text", text: "" } })).status).toBe(400);
		const other = await createWorkspace();
		expect((await call("PUT", path, { key: other.apiKey, body: { type: "default" } })).status).toBe(403);
	});
});

describe("split-screen choices at submission", () => {
	it("refuses an unknown background id or category with 400 and charges nothing", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 50 });
		const source = fake().addSource(url("talk.mp4"), { duration: 120 });
		const unknownId = await call("POST", "/api/videos/hosted", {
			key: apiKey,
			body: { hostedUrl: source, config: { enableSplitScreen: true, splitScreenBgVideoId: "bg_missing" } },
		});
		expect(unknownId.status).toBe(400);
		expect(unknownId.body.error.details).toEqual([
			{ path: "config.splitScreenBgVideoId", message: "unknown background id" },
		]);
		const unknownCategory = await call("POST", "/api/videos/hosted", {
			key: apiKey,
			body: { hostedUrl: source, config: { enableSplitScreen: true, splitScreenBgCategoryId: "cats" } },
		});
		expect(unknownCategory.status).toBe(400);
		const emptyCustom = await call("POST", "/api/videos/hosted", {
			key: apiKey,
			body: { hostedUrl: source, config: { enableSplitScreen: true, splitScreenBgCategoryId: "custom" } },
		});
		expect(emptyCustom.status).toBe(400);
		expect(await balanceOf(workspaceId)).toBe(50);
	});
});

describe("what the workflow asks the render tier to draw", () => {
	it("sends captions from the transcript (clip-relative), the hook title, the image mark, the background and smart crop", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 100 });
		const logo = url("logo.png");
		fake().media.add(logo);
		await call("PUT", `/api/workspaces/${workspaceId}/watermark`, {
			key: apiKey,
			body: { type: "image", imageUrl: logo },
		});
		const source = fake().addSource(url("talk.mp4"), { duration: 120 });
		const videoId = await submitAndProcess(apiKey, source, {
			clipDurationMin: 15,
			clipDurationMax: 30,
			enableCaptions: true,
			captionTemplateId: "word-by-word",
			enableIntroTitle: true,
			enableSplitScreen: true,
			splitScreenBgVideoId: "satisfying-life",
			splitRatio: 40,
			enableSmartCrop: true,
		});
		const requests = renderRequests(videoId);
		expect(requests.length).toBeGreaterThanOrEqual(2);
		const clips = (
			await env.DB.prepare(
				"SELECT id, start_time AS start, end_time AS end, hook_title AS hook FROM clips WHERE video_id = ?",
			)
				.bind(videoId)
				.all<{ id: string; start: number; end: number; hook: string }>()
		).results;
		const transcript = (await (await env.MEDIA.get(`transcripts/${videoId}.json`))!.json()) as {
			words: { word: string; start: number; end: number }[];
		};
		for (const req of requests) {
			const clip = clips.find((c) => c.id === req.clipId)!;
			expect(req.captions?.look).toEqual(presetLook("word-by-word"));
			const spoken = transcript.words.filter((w) => w.start >= clip.start && w.end <= clip.end);
			expect(req.captions!.words.map((w) => w.word)).toEqual(expect.arrayContaining(spoken.map((w) => w.word)));
			for (const w of req.captions!.words) {
				expect(w.start).toBeGreaterThanOrEqual(0);
				expect(w.end).toBeLessThanOrEqual(clip.end - clip.start + 1e-9);
			}
			const first = spoken[0]!;
			expect(
				req.captions!.words.find(
					(w) => w.word === first.word && Math.abs(w.start - (first.start - clip.start)) < 1e-6,
				),
			).toBeDefined();
			expect(req.hookTitle).toBe(clip.hook);
			expect(req.hookTitle).toBeTruthy();
			// The video renders with its own copy of the mark, so replacing the workspace's mark cannot break it.
			expect(req.watermark).toMatchObject({
				kind: "image",
				imageUrl: expect.stringContaining(`/internal/objects/clips/${videoId}/watermark.png`),
			});
			expect(req.splitScreen).toMatchObject({
				backgroundKey: "backgrounds/builtin/satisfying-life.mp4",
				ratio: 40,
			});
			expect(req.smartCrop).toBe(true);
			// The signed URLs really serve the stored objects.
			expect((await fetchInternal(req.splitScreen!.backgroundUrl)).status).toBe(200);
			expect((await fetchInternal((req.watermark as { imageUrl: string }).imageUrl)).status).toBe(200);
		}
		expect(await env.MEDIA.head(`clips/${videoId}/watermark.png`)).not.toBeNull();
		// The built-in background was drawn once and is kept for later videos.
		const drawn = () => fake().calls.filter((c) => c.path === renderJobs.makeBackground.path).length;
		expect(drawn()).toBe(1);
		const again = await submitAndProcess(apiKey, fake().addSource(url("talk2.mp4"), { duration: 60 }), {
			enableSplitScreen: true,
			splitScreenBgVideoId: "satisfying-life",
		});
		expect(renderRequests(again).length).toBeGreaterThan(0);
		expect(drawn()).toBe(1);
	});

	it("sends nothing extra with the defaults: no captions, no hook, no split, centre crop, the default text mark", async () => {
		const { apiKey } = await createWorkspace({ minutes: 100 });
		const videoId = await submitAndProcess(apiKey, fake().addSource(url("talk.mp4"), { duration: 60 }), {});
		for (const req of renderRequests(videoId)) {
			expect(req).toMatchObject({
				captions: null,
				hookTitle: null,
				splitScreen: null,
				smartCrop: false,
				watermark: { kind: "text", text: "clipforge" },
			});
		}
	});

	it("uses the workspace's text mark, none when enableWatermark is false, and picks a background of the asked category", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 100 });
		await call("PUT", `/api/workspaces/${workspaceId}/watermark`, {
			key: apiKey,
			body: { type: "text", text: "@me" },
		});
		const marked = await submitAndProcess(apiKey, fake().addSource(url("a.mp4"), { duration: 60 }), {
			enableSplitScreen: true,
			splitScreenBgCategoryId: "retro",
		});
		for (const req of renderRequests(marked)) {
			expect(req.watermark).toEqual({ kind: "text", text: "@me" });
			expect(req.splitScreen!.backgroundKey).toMatch(/^backgrounds\/builtin\/retro-/);
		}
		const bare = await submitAndProcess(apiKey, fake().addSource(url("b.mp4"), { duration: 60 }), {
			enableWatermark: false,
		});
		for (const req of renderRequests(bare)) expect(req.watermark).toBeNull();
	});
});

function fetchInternal(signedUrl: string) {
	const u = new URL(signedUrl);
	return call("GET", u.pathname + u.search);
}
