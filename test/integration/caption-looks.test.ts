/**
 * Caption looks and remove-silences on the Worker's side: GET /api/caption-templates (the presets
 * and the workspace's own templates, each with a preview the tier draws once and R2 keeps, served
 * through a signed URL), the brand-kit CRUD with its errors, `captionTemplateId` at submission
 * (presets and `custom:<id>`) and the look the render tier is asked to draw; `removeSilences`: the
 * pauses planned from the transcript, the cut clip's duration reported. The drawing itself is
 * checked with real ffmpeg in containers/render/test/looks.test.ts and jump-cuts.test.ts.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
	applyOverrides,
	CAPTION_PRESET_IDS,
	presetLook,
	renderJobs,
	RenderClipRequest,
	type RenderClipSpec,
} from "@clipforge/contract";
import { getDb } from "../../src/worker/db/client";
import { retime } from "@clipforge/contract";
import { pausesToCut } from "../../src/worker/domain/silences";
import { purgeOldPreviews, resolveCaptionLook } from "../../src/worker/services/caption-templates";
import { balanceOf, createUser, createWorkspace } from "../helpers/accounts";
import { BASE, call, signIn, submitAndProcess } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";
import { introspectVideoRuns } from "../helpers/video-runs";

const fake = useFakeRenderTier({ introspect: false });
const url = (name: string) => `https://media.example.com/${name}-${crypto.randomUUID()}`;
const previewCalls = () => fake().calls.filter((c) => c.path === renderJobs.captionPreview.path);

function renderRequests(videoId: string): RenderClipSpec[] {
	return fake()
		.calls.filter(
			(c) => c.path === renderJobs.renderClip.path && (c.body as { videoId: string }).videoId === videoId,
		)
		.map((c) => RenderClipRequest.parse(c.body));
}

interface Template {
	id: string;
	kind: "preset" | "custom";
	name: string;
	presetId: string;
	font: string;
	textColor: string;
	highlightColor: string;
	position: string;
	previewUrl: string | null;
}

const brandKit = {
	name: "Brand",
	presetId: "boxed",
	font: "bebas-neue",
	textColor: "#ff3366",
	highlightColor: "#00CCFF",
	position: "top",
};

describe("GET /api/caption-templates", () => {
	it("lists the nine presets with previews the tier draws once, stored in R2 and served through signed URLs", async () => {
		const { apiKey } = await createWorkspace();
		const before = previewCalls().length;
		const listed = await call("GET", "/api/caption-templates", { key: apiKey });
		expect(listed.status).toBe(200);
		const templates = listed.body.templates as Template[];
		expect(templates.map((t) => t.id)).toEqual([...CAPTION_PRESET_IDS]);
		expect(templates.slice(0, 3).map((t) => t.id)).toEqual(["karaoke", "word-by-word", "sentence"]);
		expect(
			templates.every((t) => t.kind === "preset" && t.previewUrl?.startsWith(`${BASE}/api/caption-previews/`)),
		).toBe(true);
		expect(listed.body.fonts.map((f: { id: string }) => f.id)).toEqual([
			"dejavu-sans",
			"dejavu-serif",
			"noto-sans",
			"lato-black",
			"bebas-neue",
		]);
		expect(listed.body.positions).toEqual(["bottom", "middle", "top", "lower-third"]);

		// Each preview was drawn by the tier (its look and a putUrl), at most once per look, whichever test ran first.
		for (const c of previewCalls().slice(before))
			expect((c.body as { look: unknown }).look).toEqual(
				expect.objectContaining({ animation: expect.any(String) }),
			);
		const drawn = previewCalls().length;
		const again = await call("GET", "/api/caption-templates", { key: apiKey });
		expect(previewCalls().length).toBe(drawn);
		expect((again.body.templates as Template[]).map((t) => t.previewUrl !== null)).toEqual(
			templates.map(() => true),
		);

		// The signed URL needs no credentials and answers the PNG the tier stored; a tampered or expired one is refused.
		const karaoke = templates.find((t) => t.id === "karaoke")!;
		const image = await call("GET", karaoke.previewUrl!.slice(BASE.length), { key: null });
		expect(image.status).toBe(200);
		expect(image.response.headers.get("content-type")).toBe("image/png");
		expect(image.body).toEqual({ preview: presetLook("karaoke") });
		const tampered = await call(
			"GET",
			karaoke.previewUrl!.slice(BASE.length).replace(/token=(\d+)\./, "token=$1.x"),
			{ key: null },
		);
		expect(tampered.status).toBe(403);
		expect(tampered.body.error.code).toBe("forbidden");
		const expired = await call(
			"GET",
			karaoke.previewUrl!.slice(BASE.length).replace(/token=\d+\./, "token=1000."),
			{ key: null },
		);
		expect(expired.status).toBe(403);
		const other = templates.find((t) => t.id === "boxed")!;
		const swapped = karaoke
			.previewUrl!.slice(BASE.length)
			.replace(/caption-previews\/[0-9a-f]+/, other.previewUrl!.match(/caption-previews\/[0-9a-f]+/)![0]);
		expect((await call("GET", swapped, { key: null })).status).toBe(403);
		expect((await call("GET", "/api/caption-templates", { key: null })).status).toBe(401);
	});

	it("lists a preview as null while the tier cannot draw it, and draws it on the next list", async () => {
		const { apiKey } = await createWorkspace();
		// A look no other test uses, so its preview is not stored yet.
		const created = await call("POST", "/api/caption-templates", {
			key: apiKey,
			body: { name: "Rare", presetId: "two-color", textColor: "#123456", highlightColor: "#654321" },
		});
		expect(created.status).toBe(201);
		expect(created.body.previewUrl).not.toBeNull();
		await env.MEDIA.delete((await env.MEDIA.list({ prefix: "caption-previews/" })).objects.map((o) => o.key));
		fake().failAlways(renderJobs.captionPreview.path, {
			code: "internal_error",
			message: "ffmpeg crashed",
			retryable: true,
		});
		const listed = await call("GET", "/api/caption-templates", { key: apiKey });
		expect(listed.status).toBe(200);
		expect((listed.body.templates as Template[]).every((t) => t.previewUrl === null)).toBe(true);
		fake().failures.clear();
		const healed = await call("GET", "/api/caption-templates", { key: apiKey });
		expect((healed.body.templates as Template[]).every((t) => t.previewUrl !== null)).toBe(true);
	});
});

describe("a workspace's own caption templates (brand kit)", () => {
	it("creates, lists, changes and deletes them; the preset's look with the template's font, colours and position", async () => {
		const { apiKey } = await createWorkspace();
		const created = await call("POST", "/api/caption-templates", { key: apiKey, body: brandKit });
		expect(created.status).toBe(201);
		expect(created.body).toMatchObject({
			id: expect.stringMatching(/^custom:ct_/),
			kind: "custom",
			name: "Brand",
			presetId: "boxed",
			font: "bebas-neue",
			textColor: "#FF3366",
			highlightColor: "#00CCFF",
			position: "top",
			overrides: { font: "bebas-neue", textColor: "#FF3366", highlightColor: "#00CCFF", position: "top" },
			previewUrl: expect.stringContaining("/api/caption-previews/"),
		});
		const look = applyOverrides(presetLook("boxed"), {
			font: "bebas-neue",
			textColor: "#FF3366",
			highlightColor: "#00CCFF",
			position: "top",
		});
		const preview = await call("GET", created.body.previewUrl.slice(BASE.length), { key: null });
		expect(preview.body).toEqual({ preview: look });

		const partial = await call("POST", "/api/caption-templates", {
			key: apiKey,
			body: { name: "Just yellow", presetId: "karaoke", highlightColor: "#FFE600" },
		});
		expect(partial.body).toMatchObject({
			font: "dejavu-sans",
			position: "bottom",
			overrides: { font: null, textColor: null, highlightColor: "#FFE600", position: null },
		});
		// The same look as a preset shares its preview.
		const presets = (await call("GET", "/api/caption-templates", { key: apiKey })).body.templates as Template[];
		const listed = presets.filter((t) => t.kind === "custom");
		expect(listed.map((t) => t.name)).toEqual(["Just yellow", "Brand"]);
		expect(new URL(listed[0]!.previewUrl!).pathname).toBe(
			new URL(presets.find((t) => t.id === "karaoke")!.previewUrl!).pathname,
		);

		const id = (created.body.id as string).slice("custom:".length);
		const changed = await call("PATCH", `/api/caption-templates/${id}`, {
			key: apiKey,
			body: { name: "Brand v2", position: null, presetId: "highlight-box" },
		});
		expect(changed.status).toBe(200);
		expect(changed.body).toMatchObject({
			name: "Brand v2",
			presetId: "highlight-box",
			position: "bottom",
			font: "bebas-neue",
			textColor: "#FF3366",
		});

		expect((await call("DELETE", `/api/caption-templates/${id}`, { key: apiKey })).status).toBe(204);
		const after = (await call("GET", "/api/caption-templates", { key: apiKey })).body.templates as Template[];
		expect(after.filter((t) => t.kind === "custom").map((t) => t.name)).toEqual(["Just yellow"]);
		expect((await call("DELETE", `/api/caption-templates/${id}`, { key: apiKey })).status).toBe(404);
		expect(
			(await call("PATCH", `/api/caption-templates/${id}`, { key: apiKey, body: { name: "Back" } })).status,
		).toBe(404);
	});

	it("answers 400 with each field's problem, 404 for another workspace's template, 409 for a name in use", async () => {
		const { apiKey } = await createWorkspace();
		const bad = await call("POST", "/api/caption-templates", {
			key: apiKey,
			body: { name: "", presetId: "neon", font: "Comic Sans", textColor: "red", position: "left" },
		});
		expect(bad.status).toBe(400);
		expect(bad.body.error.code).toBe("invalid_request");
		expect(bad.body.error.requestId).toEqual(expect.any(String));
		expect((bad.body.error.details as { path: string }[]).map((d) => d.path).sort()).toEqual([
			"font",
			"name",
			"position",
			"presetId",
			"textColor",
		]);
		expect(
			(await call("POST", "/api/caption-templates", { key: apiKey, body: { ...brandKit, outline: 3 } })).status,
		).toBe(400);
		expect(
			(
				await call("POST", "/api/caption-templates", {
					key: apiKey,
					body: { ...brandKit, highlightColor: "#12345" },
				})
			).status,
		).toBe(400);

		const created = await call("POST", "/api/caption-templates", { key: apiKey, body: brandKit });
		const clash = await call("POST", "/api/caption-templates", {
			key: apiKey,
			body: { ...brandKit, name: " brand " },
		});
		expect(clash.status).toBe(409);
		expect(clash.body.error).toMatchObject({ code: "conflict", details: { id: created.body.id } });
		const second = await call("POST", "/api/caption-templates", {
			key: apiKey,
			body: { ...brandKit, name: "Second" },
		});
		const secondId = (second.body.id as string).slice("custom:".length);
		expect(
			(await call("PATCH", `/api/caption-templates/${secondId}`, { key: apiKey, body: { name: "BRAND" } }))
				.status,
		).toBe(409);
		expect(
			(await call("PATCH", `/api/caption-templates/${secondId}`, { key: apiKey, body: { textColor: "blue" } }))
				.status,
		).toBe(400);
		expect(
			(await call("PATCH", `/api/caption-templates/not-an-id`, { key: apiKey, body: { name: "x" } })).status,
		).toBe(400);

		const other = await createWorkspace();
		const foreign = await call("PATCH", `/api/caption-templates/${secondId}`, {
			key: other.apiKey,
			body: { name: "Mine now" },
		});
		expect(foreign.status).toBe(404);
		expect(foreign.body.error.code).toBe("not_found");
		expect((await call("DELETE", `/api/caption-templates/${secondId}`, { key: other.apiKey })).status).toBe(404);
		expect(
			((await call("GET", "/api/caption-templates", { key: other.apiKey })).body.templates as Template[]).some(
				(t) => t.kind === "custom",
			),
		).toBe(false);
	});
});

describe("who may change the brand kit", () => {
	it("the workspace's owner or an admin (or one of its API keys); a signed-in member lists and uses the looks but changes nothing (403)", async () => {
		const workspace = await createWorkspace();
		const existing = await call("POST", "/api/caption-templates", { key: workspace.apiKey, body: brandKit });
		const cookieOf = async (role: "admin" | "member") => {
			const user = await createUser({ workspaces: 0 });
			await env.DB.prepare("INSERT INTO memberships (user_id, workspace_id, role) VALUES (?, ?, ?)")
				.bind(user.userId, workspace.workspaceId, role)
				.run();
			return signIn(user.email, user.password);
		};
		const member = await cookieOf("member");
		const id = (existing.body.id as string).slice("custom:".length);
		const q = `?workspaceId=${workspace.workspaceId}`;
		for (const attempt of [
			call("POST", "/api/caption-templates", {
				headers: { cookie: member },
				body: { ...brandKit, name: "Mine", workspaceId: workspace.workspaceId },
			}),
			call("PATCH", `/api/caption-templates/${id}${q}`, { headers: { cookie: member }, body: { name: "Mine" } }),
			call("DELETE", `/api/caption-templates/${id}${q}`, { headers: { cookie: member } }),
		]) {
			const res = await attempt;
			expect(res.status).toBe(403);
			expect(res.body.error).toMatchObject({
				code: "forbidden",
				message: expect.stringMatching(/owner or an admin/),
			});
		}
		const listed = await call("GET", `/api/caption-templates${q}`, { headers: { cookie: member } });
		expect((listed.body.templates as Template[]).filter((t) => t.kind === "custom").map((t) => t.name)).toEqual([
			"Brand",
		]);

		const admin = await cookieOf("admin");
		const created = await call("POST", "/api/caption-templates", {
			headers: { cookie: admin },
			body: { ...brandKit, name: "Admin's", workspaceId: workspace.workspaceId },
		});
		expect(created.status).toBe(201);
		expect(
			(await call("DELETE", `/api/caption-templates/${created.body.id}${q}`, { headers: { cookie: admin } }))
				.status,
		).toBe(204);
	});

	it("keeps at most 50 templates a workspace: 409 quota_exceeded beyond, room again after a delete", async () => {
		const { apiKey } = await createWorkspace();
		const ids: string[] = [];
		for (let n = 0; n < 50; n++)
			ids.push(
				(
					await call("POST", "/api/caption-templates", {
						key: apiKey,
						body: { ...brandKit, name: `Look ${n}` },
					})
				).body.id,
			);
		const full = await call("POST", "/api/caption-templates", {
			key: apiKey,
			body: { ...brandKit, name: "One more" },
		});
		expect(full.status).toBe(409);
		expect(full.body.error).toMatchObject({ code: "quota_exceeded", details: { limit: 50, used: 50 } });
		await call("DELETE", `/api/caption-templates/${ids[0]}`, { key: apiKey });
		expect(
			(await call("POST", "/api/caption-templates", { key: apiKey, body: { ...brandKit, name: "One more" } }))
				.status,
		).toBe(201);
	});
});

describe("the brand kit's bounds hold under races and over time", () => {
	it("racing creates past the 50th never pass the cap: of 6 at once with 48 kept, 2 are created", async () => {
		const { apiKey, workspaceId } = await createWorkspace();
		for (let n = 0; n < 48; n++)
			await env.DB.prepare(
				"INSERT INTO caption_templates (id, workspace_id, name, preset_id) VALUES (?, ?, ?, 'karaoke')",
			)
				.bind(`ct_seed${n}_${crypto.randomUUID().slice(0, 8)}`, workspaceId, `Seed ${n}`)
				.run();
		const answers = await Promise.all(
			Array.from({ length: 6 }, (_, n) =>
				call("POST", "/api/caption-templates", { key: apiKey, body: { ...brandKit, name: `Race ${n}` } }),
			),
		);
		expect(answers.filter((a) => a.status === 201)).toHaveLength(2);
		const refused = answers.filter((a) => a.status === 409);
		expect(refused).toHaveLength(4);
		for (const r of refused) expect(r.body.error).toMatchObject({ code: "quota_exceeded", details: { limit: 50 } });
		const live = await env.DB.prepare(
			"SELECT COUNT(*) AS n FROM caption_templates WHERE workspace_id = ? AND deleted_at IS NULL",
		)
			.bind(workspaceId)
			.first<number>("n");
		expect(live).toBe(50);
	});

	it("previews no look needs any more do not pile up: the cron deletes those older than 30 days, and a list draws what it needs again", async () => {
		const { apiKey } = await createWorkspace();
		await call("GET", "/api/caption-templates", { key: apiKey });
		const stored = async () => (await env.MEDIA.list({ prefix: "caption-previews/" })).objects.length;
		expect(await stored()).toBeGreaterThanOrEqual(9);
		expect(await purgeOldPreviews(env, Date.now() + 29 * 86_400_000)).toBe(0);
		expect(await purgeOldPreviews(env, Date.now() + 31 * 86_400_000)).toBeGreaterThanOrEqual(9);
		expect(await stored()).toBe(0);
		const drawn = previewCalls().length;
		const listed = await call("GET", "/api/caption-templates", { key: apiKey });
		expect(previewCalls().length).toBeGreaterThan(drawn);
		expect((listed.body.templates as Template[]).every((t) => t.previewUrl !== null)).toBe(true);
	});
});

describe("captionTemplateId at submission", () => {
	it("draws every clip in a preset's look or the workspace's template", async () => {
		const { apiKey } = await createWorkspace({ minutes: 100 });
		const source = fake().addSource(url("talk.mp4"), { duration: 90 });
		const boldId = await submitAndProcess(apiKey, source, {
			clipDurationMin: 15,
			clipDurationMax: 30,
			enableCaptions: true,
			captionTemplateId: "bold-outline",
		});
		expect(renderRequests(boldId).map((r) => r.captions?.look)).toEqual(
			renderRequests(boldId).map(() => presetLook("bold-outline")),
		);

		const created = await call("POST", "/api/caption-templates", { key: apiKey, body: brandKit });
		const customId = await submitAndProcess(apiKey, source, {
			clipDurationMin: 15,
			clipDurationMax: 30,
			enableCaptions: true,
			captionTemplateId: created.body.id,
		});
		const requests = renderRequests(customId);
		expect(requests.length).toBeGreaterThan(0);
		const look = applyOverrides(presetLook("boxed"), {
			font: "bebas-neue",
			textColor: "#FF3366",
			highlightColor: "#00CCFF",
			position: "top",
		});
		for (const r of requests) expect(r.captions?.look).toEqual(look);
		expect((await call("GET", `/api/videos/${customId}`, { key: apiKey })).body.config.captionTemplateId).toBe(
			created.body.id,
		);

		// No captions: no look is sent.
		const bare = await submitAndProcess(apiKey, source, {
			clipDurationMin: 15,
			clipDurationMax: 30,
			enableCaptions: false,
			captionTemplateId: created.body.id,
		});
		expect(renderRequests(bare).every((r) => r.captions === null)).toBe(true);
	});

	it("refuses an unknown, deleted or another workspace's template with 400 before charging", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 50 });
		const source = fake().addSource(url("talk.mp4"), { duration: 90 });
		const submit = (captionTemplateId: unknown) =>
			call("POST", "/api/videos/hosted", {
				key: apiKey,
				body: { hostedUrl: source, config: { captionTemplateId } },
			});

		const unknownPreset = await submit("neon");
		expect(unknownPreset.status).toBe(400);
		expect(unknownPreset.body.error.details[0].path).toBe("config.captionTemplateId");
		expect((await submit("Karaoke")).status).toBe(400);
		const missing = await submit("custom:ct_missing");
		expect(missing.status).toBe(400);
		expect(missing.body.error.details).toEqual([
			{ path: "config.captionTemplateId", message: "unknown caption template" },
		]);

		const other = await createWorkspace();
		const foreign = await call("POST", "/api/caption-templates", { key: other.apiKey, body: brandKit });
		expect((await submit(foreign.body.id)).status).toBe(400);

		const mine = await call("POST", "/api/caption-templates", { key: apiKey, body: brandKit });
		// Routes take the id as listed (custom:ct_…) or bare.
		expect((await call("DELETE", `/api/caption-templates/${mine.body.id}`, { key: apiKey })).status).toBe(204);
		expect((await submit(mine.body.id)).status).toBe(400);
		expect(await balanceOf(workspaceId)).toBe(50);

		// The same check on PUT …/config for a video waiting for its config.
		const pending = await call("POST", "/api/videos/hosted", { key: apiKey, body: { hostedUrl: source } });
		const put = await call("PUT", `/api/videos/${pending.body.video.id}/config`, {
			key: apiKey,
			body: { captionTemplateId: "custom:ct_missing" },
		});
		expect(put.status).toBe(400);
		expect(
			(await call("GET", `/api/videos/${pending.body.video.id}/status`, { key: apiKey })).body.video.status,
		).toBe("pending_config");
	});

	it("still resolves a deleted template for the videos submitted with it", async () => {
		const { apiKey, workspaceId } = await createWorkspace();
		const created = await call("POST", "/api/caption-templates", { key: apiKey, body: brandKit });
		expect(
			(await call("DELETE", `/api/caption-templates/${(created.body.id as string).slice(7)}`, { key: apiKey }))
				.status,
		).toBe(204);
		const look = applyOverrides(presetLook("boxed"), {
			font: "bebas-neue",
			textColor: "#FF3366",
			highlightColor: "#00CCFF",
			position: "top",
		});
		expect(await resolveCaptionLook(getDb(env), workspaceId, created.body.id)).toEqual(look);
		await expect(
			resolveCaptionLook(getDb(env), (await createWorkspace()).workspaceId, created.body.id),
		).rejects.toThrow(/does not exist/);
	});
});

describe("removeSilences", () => {
	it("sends the transcript's pauses as jump cuts and reports the cut clip's duration", async () => {
		const { apiKey } = await createWorkspace({ minutes: 100 });
		const source = fake().addSource(url("talk.mp4"), { duration: 120 });
		const videoId = await submitAndProcess(apiKey, source, {
			clipDurationMin: 15,
			clipDurationMax: 30,
			removeSilences: true,
			enableCaptions: true,
			captionTemplateId: "karaoke",
		});
		const requests = renderRequests(videoId);
		expect(requests.length).toBeGreaterThanOrEqual(2);
		const clips = (await call("GET", `/api/videos/${videoId}/clips`, { key: apiKey })).body.clips as {
			id: string;
			startTime: number;
			endTime: number;
			duration: number;
			transcript: string;
		}[];
		let cutSomewhere = false;
		for (const req of requests) {
			// The pauses are the gaps of 0.6 s or more between the clip's words (the script pauses 0.83 s between sentences), less 0.12 s of padding each side.
			expect(req.jumpCuts?.confirmWithAudio).toBe(true);
			expect(req.jumpCuts?.pauses).toEqual(pausesToCut(req.captions!.words, 0.6));
			for (const p of req.jumpCuts!.pauses) expect(p.end - p.start).toBeCloseTo(0.83 - 0.24, 3);
			const clip = clips.find((c) => c.id === req.clipId)!;
			const span = clip.endTime - clip.startTime;
			// The fake tier cuts as the real one plans (30 fps grid): each pause loses whole frames.
			const removed = req.jumpCuts!.pauses.reduce(
				(sum, p) => sum + (Math.floor(p.end * 30 + 1e-6) - Math.ceil(p.start * 30 - 1e-6)) / 30,
				0,
			);
			expect(clip.duration).toBeCloseTo(span - removed, 1);
			if (removed > 0) cutSomewhere = true;
			expect(clip.duration).toBeLessThan(span);
		}
		expect(cutSomewhere).toBe(true);
	});

	it("cuts only pauses at least as long as silenceThresholdSeconds, with or without captions, and leaves clips alone by default", async () => {
		const { apiKey } = await createWorkspace({ minutes: 100 });
		const source = fake().addSource(url("talk.mp4"), { duration: 60 });
		const strict = await submitAndProcess(apiKey, source, {
			clipDurationMin: 15,
			clipDurationMax: 30,
			removeSilences: true,
			silenceThresholdSeconds: 1,
			enableCaptions: false,
		});
		for (const r of renderRequests(strict)) {
			expect(r.captions).toBeNull();
			expect(r.jumpCuts).toBeNull();
		}
		const plain = await submitAndProcess(apiKey, source, { clipDurationMin: 15, clipDurationMax: 30 });
		const clips = (await call("GET", `/api/videos/${plain}/clips`, { key: apiKey })).body.clips as {
			startTime: number;
			endTime: number;
			duration: number;
		}[];
		for (const r of renderRequests(plain)) expect(r.jumpCuts).toBeNull();
		for (const c of clips) expect(c.duration).toBeCloseTo(c.endTime - c.startTime, 2);
		const config = (await call("GET", `/api/videos/${plain}`, { key: apiKey })).body.config;
		expect(config).toMatchObject({ removeSilences: false, silenceThresholdSeconds: 0.6 });
	});

	it("refuses a threshold out of range or of the wrong type", async () => {
		const { apiKey } = await createWorkspace({ minutes: 50 });
		const source = fake().addSource(url("talk.mp4"), { duration: 60 });
		for (const config of [
			{ removeSilences: "yes" },
			{ removeSilences: true, silenceThresholdSeconds: 0.1 },
			{ silenceThresholdSeconds: 9 },
		]) {
			const res = await call("POST", "/api/videos/hosted", { key: apiKey, body: { hostedUrl: source, config } });
			expect(res.status).toBe(400);
			expect(res.body.error.details[0].path).toMatch(/^config\.(removeSilences|silenceThresholdSeconds)$/);
		}
	});
});

describe("a cut clip's captions and edits", () => {
	/** PATCHes and, when a re-render started, waits for its workflow instance to end. */
	async function editAndWait(key: string, clipId: string, body: unknown) {
		await using introspector = await introspectVideoRuns();
		const response = await call("PATCH", `/api/clips/${clipId}`, { key, body });
		if (response.status === 202)
			for (const instance of await introspector.get()) await instance.waitForStatus("complete");
		return response;
	}

	it("lists its caption words and exports SRT/VTT on the cut clip's timeline; an edit keeps silences removed and may take a workspace look", async () => {
		const { apiKey } = await createWorkspace({ minutes: 100 });
		const source = fake().addSource(url("talk.mp4"), { duration: 120 });
		const videoId = await submitAndProcess(apiKey, source, {
			clipDurationMin: 15,
			clipDurationMax: 30,
			removeSilences: true,
			enableCaptions: true,
		});
		const listed = (await call("GET", `/api/videos/${videoId}/clips`, { key: apiKey })).body.clips as {
			id: string;
		}[];
		const clip = (await call("GET", `/api/clips/${listed[0]!.id}`, { key: apiKey })).body;
		const request = RenderClipRequest.parse(renderRequests(videoId).find((r) => r.clipId === clip.id));
		const cuts = planned(request);
		expect(cuts.length).toBeGreaterThan(0);
		// Each word at its place in the cut file: its clip-relative time less the pauses cut before it.
		const words = clip.words as { index: number; word: string; start: number; end: number }[];
		request.captions!.words.forEach((w, i) => {
			expect(words[i]!.start).toBeCloseTo(retime(w.start, cuts), 3);
			expect(words[i]!.end).toBeCloseTo(retime(w.end, cuts), 3);
		});
		expect(words.at(-1)!.end).toBeLessThanOrEqual(clip.duration + 0.01);
		const srt = await call("GET", `/api/clips/${clip.id}/captions?format=srt`, { key: apiKey });
		const last = [...(srt.body as string).matchAll(/--> (\d\d):(\d\d):(\d\d),(\d\d\d)/g)].at(-1)!;
		const lastEnd = Number(last[1]) * 3600 + Number(last[2]) * 60 + Number(last[3]) + Number(last[4]) / 1000;
		expect(lastEnd).toBeCloseTo(words.at(-1)!.end, 2);
		expect(lastEnd).toBeLessThan(clip.endTime - clip.startTime - 0.3);

		// An edit in a workspace look: cut again, drawn in that look, its duration the new cut file's.
		const look = await call("POST", "/api/caption-templates", { key: apiKey, body: brandKit });
		expect(
			(await call("PATCH", `/api/clips/${clip.id}`, { key: apiKey, body: { captionStyle: "custom:ct_missing" } }))
				.body.error.details,
		).toEqual([{ path: "captionStyle", message: "unknown caption template" }]);
		const edited = await editAndWait(apiKey, clip.id, { captionStyle: look.body.id, endTime: clip.endTime - 3 });
		expect(edited.status, JSON.stringify(edited.body)).toBe(202);
		const again = renderRequests(videoId)
			.filter((r) => r.clipId === clip.id)
			.at(-1)!;
		expect(again.captions?.look).toEqual(
			applyOverrides(presetLook("boxed"), {
				font: "bebas-neue",
				textColor: "#FF3366",
				highlightColor: "#00CCFF",
				position: "top",
			}),
		);
		expect(again.jumpCuts?.pauses.length).toBeGreaterThan(0);
		const after = (await call("GET", `/api/clips/${clip.id}`, { key: apiKey })).body;
		expect(after).toMatchObject({ status: "completed", captionStyle: look.body.id });
		const removed = planned(again).reduce((sum, c) => sum + c.end - c.start, 0);
		expect(after.duration).toBeCloseTo(after.endTime - after.startTime - removed, 1);
	});
});

/** The stretches the (fake) tier cut for a request: as the real one plans them, on a 30 fps grid. */
function planned(request: RenderClipSpec) {
	return (request.jumpCuts?.pauses ?? [])
		.map((p) => ({ start: Math.ceil(p.start * 30 - 1e-6) / 30, end: Math.floor(p.end * 30 + 1e-6) / 30 }))
		.filter((c) => c.end - c.start >= 0.15 - 1e-9);
}
