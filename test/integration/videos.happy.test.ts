import { env } from "cloudflare:workers";
import { CONFIG_DEFAULTS } from "@clipforge/domain";
import { describe, expect, it } from "vitest";
import { balanceOf, createWorkspace, ledgerSum, statusEvents } from "../helpers/accounts";
import { call } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";

const fake = useFakeRenderTier();

const source = (duration: number) =>
	fake().addSource(`https://videos.example.com/watch-${crypto.randomUUID()}`, {
		duration,
		title: "How sleep shapes your work",
	});

const DOCUMENTED_PATHS = [
	"/api/api-keys",
	"/api/api-keys/{id}",
	"/api/auth/login",
	"/api/auth/logout",
	"/api/auth/password",
	"/api/backgrounds",
	"/api/backgrounds/{id}",
	"/api/caption-templates",
	"/api/caption-templates/{id}",
	"/api/clips/{id}",
	"/api/clips/{id}/captions",
	"/api/projects",
	"/api/uploads",
	"/api/uploads/{id}",
	"/api/uploads/{id}/complete",
	"/api/uploads/{id}/parts/{partNumber}",
	"/api/videos",
	"/api/videos/hosted",
	"/api/videos/upload",
	"/api/videos/{id}",
	"/api/videos/{id}/chapters",
	"/api/videos/{id}/clips",
	"/api/videos/{id}/config",
	"/api/videos/{id}/export",
	"/api/videos/{id}/reprocess",
	"/api/videos/{id}/reprocesses",
	"/api/videos/{id}/source-url",
	"/api/videos/{id}/status",
	"/api/videos/{id}/transcript",
	"/api/videos/{id}/webhooks",
	"/api/workspaces",
	"/api/workspaces/{workspaceId}/watermark",
	"/api/workspaces/{workspaceId}/webhook",
	"/api/workspaces/{workspaceId}/webhook/secret",
];

const SEED_DEFAULTS = {
	clipType: "viral-clips",
	clipModel: "ClipBasic",
	genre: "Auto",
	clipDurationMin: 15,
	clipDurationMax: 90,
	aspectRatio: "9:16",
	enableCaptions: false,
	enableIntroTitle: false,
	captionTemplateId: "karaoke",
	language: null,
	timeframeStart: 0,
	timeframeEnd: null,
	enableSplitScreen: false,
	splitScreenBgVideoId: null,
	splitScreenBgCategoryId: null,
	splitRatio: 50,
	enableSmartCrop: false,
	// Not in the seed: speaker layouts (issue 17); its default draws one-face clips as the seed does.
	layout: "auto",
	enableWatermark: true,
	skipClipping: false,
	customPrompt: null,
	// Beyond the seed (issue 17).
	removeSilences: false,
	silenceThresholdSeconds: 0.6,
};
/** Every option's default: the seed's (and issue 17's) as pinned above, the later options' as the config table defines them. */
const DEFAULTS = { ...CONFIG_DEFAULTS, ...SEED_DEFAULTS };

describe("POST /api/videos/hosted", () => {
	it("answers 201 with exactly the seed's shape and charges ceil(minutes) at once", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 50 });
		const hostedUrl = source(1801); // 30 min 1 s → 31 minutes
		const { status, body, response } = await call("POST", "/api/videos/hosted", {
			key: apiKey,
			body: { hostedUrl, config: { aspectRatio: "1:1" } },
		});
		expect(status).toBe(201);
		expect(Object.keys(body).sort()).toEqual(["message", "video", "videoInfo"]);
		expect(Object.keys(body.video).sort()).toEqual([
			"createdAt",
			"id",
			"sourceType",
			"sourceUrl",
			"status",
			"title",
			"workspaceId",
		]);
		expect(body.video).toMatchObject({
			status: "downloading",
			sourceType: "hosted",
			sourceUrl: hostedUrl,
			workspaceId,
			title: "How sleep shapes your work",
		});
		expect(body.video.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
		expect(Object.keys(body.videoInfo).sort()).toEqual(["channelName", "duration", "id", "thumbnail", "title"]);
		expect(body.videoInfo.duration).toBe(1801);
		expect(response.headers.get("x-request-id")).toBeTruthy();
		expect(await balanceOf(workspaceId)).toBe(19);
		expect(await ledgerSum(workspaceId)).toBe(19);
	});

	it("creates pending_config without a config, fills every default on PUT, then starts processing", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 10 });
		const created = await call("POST", "/api/videos/hosted", { key: apiKey, body: { hostedUrl: source(59) } });
		expect(created.status).toBe(201);
		expect(created.body.video.status).toBe("pending_config");
		const id = created.body.video.id;
		expect(await balanceOf(workspaceId)).toBe(9); // charged at submission, also for pending_config

		const pending = await call("GET", `/api/videos/${id}`, { key: apiKey });
		expect(pending.body.config).toBeNull();
		const status = await call("GET", `/api/videos/${id}/status`, { key: apiKey });
		expect(status.body.video.status).toBe("pending_config");
		expect(status.body.job.progress).toBe(0);

		const configured = await call("PUT", `/api/videos/${id}/config`, { key: apiKey, body: {} });
		expect(configured.status).toBe(200);
		expect(configured.body.status).toBe("downloading");
		expect(Object.keys(CONFIG_DEFAULTS)).toEqual(expect.arrayContaining(Object.keys(SEED_DEFAULTS)));
		expect(configured.body.config).toEqual(DEFAULTS);
		expect((await statusEvents(id))[0]).toBe("pending_config");
	});

	it("keeps explicit config values and fills only the missing ones", async () => {
		const { apiKey } = await createWorkspace();
		const created = await call("POST", "/api/videos/hosted", {
			key: apiKey,
			body: {
				hostedUrl: source(300),
				config: {
					clipModel: "ClipPro",
					splitRatio: 70,
					// The suite's transcriber (the local one) hears English only: another language needs captions.
					language: "en",
					customPrompt: "funny moments",
					skipClipping: true,
				},
			},
		});
		const detail = await call("GET", `/api/videos/${created.body.video.id}`, { key: apiKey });
		expect(detail.body.config).toEqual({
			...DEFAULTS,
			clipModel: "ClipPro",
			splitRatio: 70,
			language: "en",
			customPrompt: "funny moments",
			skipClipping: true,
		});
		expect(detail.body.minutesCharged).toBe(5);
		expect(detail.body.videoInfo.duration).toBe(300);
	});

	it("charges only the time frame", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 100 });
		await call("POST", "/api/videos/hosted", {
			key: apiKey,
			body: { hostedUrl: source(3600), config: { timeframeStart: 600, timeframeEnd: 1230, skipClipping: true } },
		});
		expect(await balanceOf(workspaceId)).toBe(100 - 11);
	});

	it("accepts a workspaceId equal to the key's workspace and a projectId of that workspace", async () => {
		const { apiKey, workspaceId } = await createWorkspace();
		await env.DB.prepare("INSERT INTO projects (id, workspace_id, name) VALUES (?1, ?2, 'Shorts')")
			.bind(`prj_${workspaceId}`, workspaceId)
			.run();
		const created = await call("POST", "/api/videos/hosted", {
			key: apiKey,
			body: { hostedUrl: source(60), workspaceId, projectId: `prj_${workspaceId}` },
		});
		expect(created.status).toBe(201);
		expect((await call("GET", `/api/videos/${created.body.video.id}`, { key: apiKey })).body.projectId).toBe(
			`prj_${workspaceId}`,
		);
	});
});

describe("GET /api/videos/:id/clips before completion", () => {
	it("answers 200 with an empty list and the current status", async () => {
		const { apiKey } = await createWorkspace();
		const created = await call("POST", "/api/videos/hosted", { key: apiKey, body: { hostedUrl: source(60) } });
		const clips = await call("GET", `/api/videos/${created.body.video.id}/clips`, { key: apiKey });
		expect(clips.status).toBe(200);
		expect(clips.body).toEqual({
			videoId: created.body.video.id,
			status: "pending_config",
			clips: [],
			count: 0,
			nextCursor: null,
			filters: {
				minScore: null,
				maxScore: null,
				status: null,
				favorited: null,
				sortBy: "score",
				sortOrder: "desc",
			},
		});
	});
});

describe("GET /api/workspaces", () => {
	it("lists the key's workspace with its balance and plan", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 42 });
		const { status, body } = await call("GET", "/api/workspaces", { key: apiKey });
		expect(status).toBe(200);
		expect(body).toHaveLength(1);
		expect(body[0]).toMatchObject({
			id: workspaceId,
			minutesBalance: 42,
			plan: { active: true, maxVideoSeconds: 10800 },
		});
	});
});

describe("GET /healthz", () => {
	it("answers without credentials", async () => {
		expect(await call("GET", "/healthz")).toMatchObject({ status: 200, body: { ok: true } });
	});
});

describe("GET /api/openapi.json", () => {
	it("documents every route as OpenAPI 3.1, with the shared error body", async () => {
		const { status, body } = await call("GET", "/api/openapi.json");
		expect(status).toBe(200);
		expect(body.openapi).toBe("3.1.0");
		expect(Object.keys(body.paths).sort()).toEqual(DOCUMENTED_PATHS);
		expect(body.paths["/api/videos/hosted"].post.responses["402"].content["application/json"].schema.$ref).toBe(
			"#/components/schemas/Error",
		);
		expect(body.components.schemas.VideoConfig.properties.aspectRatio.default).toBe("9:16");
	});
});

describe("GET /docs", () => {
	it("is a self-contained HTML reference of every documented route", async () => {
		const { status, body, response } = await call("GET", "/docs");
		expect(status).toBe(200);
		expect(response.headers.get("content-type")).toMatch(/^text\/html/);
		expect(body).not.toMatch(/<script/i);
		for (const path of DOCUMENTED_PATHS) expect(body).toContain(`<code>${path}</code>`);
	});
});
