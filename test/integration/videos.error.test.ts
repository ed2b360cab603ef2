import { env } from "cloudflare:workers";
import { sha256Hex } from "../../src/worker/services/crypto";
import { forgetKey } from "../../src/worker/services/key-cache";
import { describe, expect, it } from "vitest";
import { balanceOf, createWorkspace, ledgerSum } from "../helpers/accounts";
import { call } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";

const fake = useFakeRenderTier();

const source = (duration: number) =>
	fake().addSource(`https://videos.example.com/v/${crypto.randomUUID()}`, { duration });

/** Every error has the one body shape, and nothing was charged. */
async function expectError(result: { status: number; body: any }, status: number, code: string) {
	expect(result.status).toBe(status);
	expect(Object.keys(result.body)).toEqual(["error"]);
	expect(result.body.error.code).toBe(code);
	expect(typeof result.body.error.message).toBe("string");
	expect(result.body.error.message.length).toBeGreaterThan(5);
	expect(result.body.error.requestId).toBeTruthy();
}

async function submit(key: string | null, body: unknown) {
	return call("POST", "/api/videos/hosted", { key, body });
}

describe("400 invalid_request", () => {
	const cases: [string, unknown, string][] = [
		["hostedUrl missing", {}, "hostedUrl"],
		["hostedUrl not a string", { hostedUrl: 42 }, "hostedUrl"],
		["unknown top-level field", { hostedUrl: "https://a.example/v", colour: "red" }, "(body)"],
		["unknown config field", { hostedUrl: "https://a.example/v", config: { aspect: "9:16" } }, "config"],
		[
			"enum with wrong case",
			{ hostedUrl: "https://a.example/v", config: { clipModel: "clipbasic" } },
			"config.clipModel",
		],
		[
			"aspect ratio not allowed",
			{ hostedUrl: "https://a.example/v", config: { aspectRatio: "4:3" } },
			"config.aspectRatio",
		],
		["splitRatio below 10", { hostedUrl: "https://a.example/v", config: { splitRatio: 5 } }, "config.splitRatio"],
		[
			"clipDurationMin below 5",
			{ hostedUrl: "https://a.example/v", config: { clipDurationMin: 1 } },
			"config.clipDurationMin",
		],
		[
			"clipDurationMax < clipDurationMin",
			{ hostedUrl: "https://a.example/v", config: { clipDurationMin: 60, clipDurationMax: 30 } },
			"config.clipDurationMax",
		],
		[
			"timeframeEnd ≤ timeframeStart",
			{ hostedUrl: "https://a.example/v", config: { timeframeStart: 100, timeframeEnd: 50 } },
			"config.timeframeEnd",
		],
		[
			"language not ISO 639-1",
			{ hostedUrl: "https://a.example/v", config: { language: "english" } },
			"config.language",
		],
		[
			"customPrompt over 2000 chars",
			{ hostedUrl: "https://a.example/v", config: { customPrompt: "x".repeat(2001) } },
			"config.customPrompt",
		],
		[
			"boolean as string",
			{ hostedUrl: "https://a.example/v", config: { enableCaptions: "yes" } },
			"config.enableCaptions",
		],
	];
	for (const [name, body, path] of cases) {
		it(`${name} → 400 with details naming ${path}`, async () => {
			const { apiKey, workspaceId } = await createWorkspace({ minutes: 30 });
			const result = await submit(apiKey, body);
			await expectError(result, 400, "invalid_request");
			expect(result.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
			expect(await balanceOf(workspaceId)).toBe(30);
		});
	}

	it("malformed JSON → 400 invalid_request", async () => {
		const { apiKey } = await createWorkspace();
		await expectError(
			await call("POST", "/api/videos/hosted", { key: apiKey, rawBody: '{"hostedUrl": ' }),
			400,
			"invalid_request",
		);
	});

	it("split-clips whose frame 60 parts of clipDurationMax cannot cover → 400 naming clipDurationMax, nothing charged", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 300 });
		const result = await submit(apiKey, {
			hostedUrl: source(2 * 3600),
			config: { clipType: "split-clips", clipDurationMin: 5, clipDurationMax: 10 },
		});
		await expectError(result, 400, "invalid_request");
		expect(result.body.error.details[0]).toMatchObject({
			path: "config.clipDurationMax",
			message: expect.stringMatching(
				/needs 720 parts of clipDurationMax seconds .* at most 60 .* at least 120 s/,
			),
		});
		expect(await balanceOf(workspaceId)).toBe(300);
		const fits = await submit(apiKey, {
			hostedUrl: source(2 * 3600),
			config: {
				clipType: "split-clips",
				clipDurationMin: 60,
				clipDurationMax: 120,
				timeframeStart: 0,
				timeframeEnd: 3600,
			},
		});
		expect(fits.status).toBe(201);
	});

	it("timeframeStart past the video's end → 400, nothing charged", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 30 });
		const result = await submit(apiKey, { hostedUrl: source(120), config: { timeframeStart: 500 } });
		await expectError(result, 400, "invalid_request");
		expect(result.body.error.details[0].path).toBe("config.timeframeStart");
		expect(await balanceOf(workspaceId)).toBe(30);
	});
});

describe("400 invalid_url", () => {
	for (const hostedUrl of [
		"ftp://videos.example.com/a.mp4",
		"not a url",
		"javascript:alert(1)",
		"https://user:pw@videos.example.com/a.mp4",
	]) {
		it(`${hostedUrl} → 400 invalid_url`, async () => {
			const { apiKey, workspaceId } = await createWorkspace({ minutes: 30 });
			await expectError(await submit(apiKey, { hostedUrl }), 400, "invalid_url");
			expect(await balanceOf(workspaceId)).toBe(30);
		});
	}
});

describe("401 unauthorized", () => {
	const headers: [string, Record<string, string>][] = [
		["no Authorization header", {}],
		["not a Bearer scheme", { authorization: "Basic abc" }],
		["a Bearer token without the key prefix", { authorization: "Bearer sk_live_123" }],
		["an unknown key", { authorization: "Bearer cf_live_doesnotexist" }],
	];
	for (const [name, h] of headers) {
		it(`${name} → 401 on every authenticated route`, async () => {
			for (const [method, path] of [
				["POST", "/api/videos/hosted"],
				["GET", "/api/videos/vid_x/status"],
				["GET", "/api/videos/vid_x/clips"],
				["GET", "/api/videos/vid_x"],
				["PUT", "/api/videos/vid_x/config"],
				["GET", "/api/workspaces"],
			] as const) {
				await expectError(
					await call(method, path, { headers: h, body: method === "GET" ? undefined : {} }),
					401,
					"unauthorized",
				);
			}
		});
	}

	it("a key revoked behind the API's back → 401 once its cached verification expires (through the API: at once, see auth tests)", async () => {
		const { apiKey, apiKeyId } = await createWorkspace();
		expect((await call("GET", "/api/workspaces", { key: apiKey })).status).toBe(200);
		await env.DB.prepare("UPDATE api_keys SET revoked_at = '2026-01-01T00:00:00Z' WHERE id = ?")
			.bind(apiKeyId)
			.run();
		// KEY_CACHE_SECONDS later, the edge asks D1 again.
		await forgetKey(await sha256Hex(apiKey));
		await expectError(await call("GET", "/api/workspaces", { key: apiKey }), 401, "unauthorized");
	});
});

describe("402 insufficient_minutes", () => {
	it("balance 0 → 402 before any probe", async () => {
		const { apiKey } = await createWorkspace({ minutes: 0 });
		const result = await submit(apiKey, { hostedUrl: source(60) });
		await expectError(result, 402, "insufficient_minutes");
		expect(result.body.error.details).toEqual({ required: 1, balance: 0 });
		expect(fake().calls).toHaveLength(0);
	});

	it("balance below the video's cost → 402 with required and balance; nothing charged", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 3 });
		const result = await submit(apiKey, { hostedUrl: source(290) });
		await expectError(result, 402, "insufficient_minutes");
		expect(result.body.error.details).toEqual({ required: 5, balance: 3 });
		expect(await balanceOf(workspaceId)).toBe(3);
		expect(await ledgerSum(workspaceId)).toBe(3);
	});
});

describe("403", () => {
	it("no plan → no_active_plan", async () => {
		const { apiKey } = await createWorkspace({ plan: false });
		await expectError(await submit(apiKey, { hostedUrl: source(60) }), 403, "no_active_plan");
	});
	it("inactive plan → no_active_plan", async () => {
		const { apiKey } = await createWorkspace({ planActive: false });
		await expectError(await submit(apiKey, { hostedUrl: source(60) }), 403, "no_active_plan");
	});
	it("expired plan → no_active_plan", async () => {
		const { apiKey } = await createWorkspace({ expiresAt: "2020-01-01T00:00:00Z" });
		await expectError(await submit(apiKey, { hostedUrl: source(60) }), 403, "no_active_plan");
	});
	it("workspaceId of another workspace → forbidden", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 30 });
		const other = await createWorkspace();
		await expectError(
			await submit(apiKey, { hostedUrl: source(60), workspaceId: other.workspaceId }),
			403,
			"forbidden",
		);
		expect(await balanceOf(workspaceId)).toBe(30);
	});
});

describe("404 not_found", () => {
	it("unknown video on every video route", async () => {
		const { apiKey } = await createWorkspace();
		for (const [method, path] of [
			["GET", "/api/videos/vid_nope/status"],
			["GET", "/api/videos/vid_nope/clips"],
			["GET", "/api/videos/vid_nope"],
			["PUT", "/api/videos/vid_nope/config"],
		] as const) {
			await expectError(
				await call(method, path, { key: apiKey, body: method === "PUT" ? {} : undefined }),
				404,
				"not_found",
			);
		}
	});

	it("another workspace's video answers exactly like an unknown one", async () => {
		const owner = await createWorkspace();
		const stranger = await createWorkspace();
		const created = await submit(owner.apiKey, { hostedUrl: source(60) });
		const id = created.body.video.id;
		for (const [method, path] of [
			["GET", `/api/videos/${id}/status`],
			["GET", `/api/videos/${id}/clips`],
			["GET", `/api/videos/${id}`],
			["PUT", `/api/videos/${id}/config`],
		] as const) {
			const result = await call(method, path, { key: stranger.apiKey, body: method === "PUT" ? {} : undefined });
			await expectError(result, 404, "not_found");
			expect(result.body.error.message).toBe(`Video ${id} was not found.`);
		}
		expect((await call("GET", `/api/videos/${id}`, { key: owner.apiKey })).body.status).toBe("pending_config");
	});

	it("a projectId of another workspace → 404, nothing charged", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 30 });
		const other = await createWorkspace();
		await env.DB.prepare("INSERT INTO projects (id, workspace_id, name) VALUES (?1, ?2, 'theirs')")
			.bind(`prj_${other.workspaceId}`, other.workspaceId)
			.run();
		await expectError(
			await submit(apiKey, { hostedUrl: source(60), projectId: `prj_${other.workspaceId}` }),
			404,
			"not_found",
		);
		expect(await balanceOf(workspaceId)).toBe(30);
	});

	it("an unknown path → 404 in the same body", async () => {
		await expectError(await call("GET", "/api/nothing-here"), 404, "not_found");
	});
});

describe("409 conflict", () => {
	it("PUT config on a video that is already processing", async () => {
		const { apiKey } = await createWorkspace();
		const created = await submit(apiKey, { hostedUrl: source(60), config: { skipClipping: true } });
		await expectError(
			await call("PUT", `/api/videos/${created.body.video.id}/config`, { key: apiKey, body: {} }),
			409,
			"conflict",
		);
	});
});

describe("413 video_too_long and 422 unsupported_source", () => {
	it("a source longer than the plan allows → 413, nothing charged", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 500, maxVideoSeconds: 3600 });
		const result = await submit(apiKey, { hostedUrl: source(3601) });
		await expectError(result, 413, "video_too_long");
		expect(result.body.error.details).toEqual({ duration: 3601, maxDuration: 3600 });
		expect(await balanceOf(workspaceId)).toBe(500);
	});

	it("no playable video at the URL → 422, nothing charged", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 30 });
		const result = await submit(apiKey, { hostedUrl: "https://videos.example.com/unknown" });
		await expectError(result, 422, "unsupported_source");
		expect(result.body.error.message).toBe("The source could not be fetched."); // the fake speaks as the real tier
		expect(await balanceOf(workspaceId)).toBe(30);
	});

	it("render tier down at submission → 503, nothing charged", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 30 });
		fake().uninstall();
		const result = await submit(apiKey, { hostedUrl: "https://videos.example.com/any" });
		await expectError(result, 503, "service_unavailable");
		expect(await balanceOf(workspaceId)).toBe(30);
	});
});

describe("content type", () => {
	it("a write with a non-JSON Content-Type → 400 naming Content-Type, after authentication", async () => {
		const { apiKey } = await createWorkspace();
		const result = await call("POST", "/api/videos/hosted", {
			key: apiKey,
			rawBody: "{}",
			headers: { "content-type": "text/plain" },
		});
		await expectError(result, 400, "invalid_request");
		expect(result.body.error.details[0].path).toBe("Content-Type");
		await expectError(
			await call("POST", "/api/videos/hosted", { rawBody: "{}", headers: { "content-type": "text/plain" } }),
			401,
			"unauthorized",
		);
	});
});
