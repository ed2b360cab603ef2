/**
 * Property-based: random and hostile bodies, headers and URLs thrown at every write route.
 * Whatever arrives: never a 5xx, never a charge, and every error in the one documented body.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { balanceOf, createUser, createWorkspace, ledgerSum } from "../helpers/accounts";
import { call, signIn } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";
import { ERROR_CODES } from "../../src/worker/errors";

const fake = useFakeRenderTier();
const RUNS = 60;

const hostileUrl = fc.oneof(
	fc.webUrl({ withQueryParameters: true, withFragments: true }),
	fc.constantFrom(
		"http://169.254.169.254/latest/meta-data/",
		"file:///etc/passwd",
		"gopher://x",
		"javascript:alert(1)",
		"http://[::1]:80/",
		"http://0x7f.1/",
		"http://user:pw@example.com/v",
		"--help",
		"-o /tmp/x",
		"https://example.com/%00",
		"http://例え.テスト/動画",
		"data:video/mp4;base64,AAAA",
		"",
		`https://example.com/${"a".repeat(3000)}`,
	),
	fc.string(),
);

const hostileConfig = fc.oneof(
	fc.anything(),
	fc.dictionary(
		fc.constantFrom(
			"clipType",
			"clipModel",
			"aspectRatio",
			"splitRatio",
			"timeframeStart",
			"timeframeEnd",
			"language",
			"customPrompt",
			"clipDurationMin",
			"clipDurationMax",
			"skipClipping",
			"__proto__",
			"constructor",
		),
		fc.oneof(
			fc.anything(),
			fc.double(),
			fc.integer(),
			fc.constantFrom("9:16", "ClipPro", "EN", null, -1, 1e308, Number.MAX_SAFE_INTEGER),
		),
	),
);

const body = fc.oneof(
	fc.anything(),
	fc.record(
		{
			hostedUrl: hostileUrl,
			config: fc.option(hostileConfig, { nil: undefined }),
			workspaceId: fc.option(fc.string(), { nil: undefined }),
			projectId: fc.option(fc.string(), { nil: undefined }),
			webhookUrl: fc.option(hostileUrl, { nil: undefined }),
		},
		{ requiredKeys: [] },
	),
);

const rawBody = fc.oneof(
	body.map((b) => JSON.stringify(b) ?? "null"),
	fc.string(),
	fc.constantFrom("{", "[", '{"hostedUrl":', "\u0000", "null", "1e999"),
);

const headers = fc.record(
	{
		"content-type": fc.constantFrom(
			"application/json",
			"text/plain",
			"application/x-www-form-urlencoded",
			"",
			"application/json; charset=utf-16",
		),
		"idempotency-key": fc.string({ maxLength: 300 }),
		"x-forwarded-for": fc.string(),
	},
	{ requiredKeys: [] },
);

async function expectDocumentedError(result: { status: number; body: any }) {
	expect(result.status).toBeLessThan(500);
	if (result.status >= 400) {
		expect(Object.keys(result.body)).toEqual(["error"]);
		expect(ERROR_CODES).toContain(result.body.error.code);
		expect(typeof result.body.error.message).toBe("string");
		expect(typeof result.body.error.requestId).toBe("string");
	}
}

describe("write routes under random and hostile input", () => {
	it("POST /api/videos/hosted: no 5xx, no charge, documented errors", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 50 });
		await fc.assert(
			fc.asyncProperty(rawBody, headers, async (raw, h) => {
				const result = await call("POST", "/api/videos/hosted", {
					key: apiKey,
					rawBody: raw,
					headers: { "content-type": "application/json", ...h },
				});
				await expectDocumentedError(result);
				expect(result.status).not.toBe(201);
			}),
			{ numRuns: RUNS },
		);
		expect(await balanceOf(workspaceId)).toBe(50);
		expect(await ledgerSum(workspaceId)).toBe(50);
	});

	it("PUT /api/videos/:id/config and DELETE /api/videos/:id with hostile ids and bodies", async () => {
		const { apiKey } = await createWorkspace({ minutes: 50 });
		await fc.assert(
			fc.asyncProperty(fc.string({ maxLength: 200 }), rawBody, async (id, raw) => {
				const path = `/api/videos/${encodeURIComponent(id) || "x"}`;
				await expectDocumentedError(await call("PUT", `${path}/config`, { key: apiKey, rawBody: raw }));
				await expectDocumentedError(await call("DELETE", path, { key: apiKey }));
			}),
			{ numRuns: RUNS },
		);
	});

	it("a real pending video's config under random bodies: only a valid config starts it", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 50 });
		const hostedUrl = fake().addSource(`https://videos.example.com/p/${crypto.randomUUID()}`, { duration: 60 });
		const created = await call("POST", "/api/videos/hosted", { key: apiKey, body: { hostedUrl } });
		await fc.assert(
			fc.asyncProperty(hostileConfig, async (config) => {
				const result = await call("PUT", `/api/videos/${created.body.video.id}/config`, {
					key: apiKey,
					body: config,
				});
				await expectDocumentedError(result);
				if (result.status === 200) expect(result.body.status).toBe("downloading");
			}),
			{ numRuns: RUNS },
		);
		expect(await balanceOf(workspaceId)).toBe(49);
	});

	it("POST /api/projects, PUT webhook settings and POST /api/auth/login", async () => {
		const { apiKey, workspaceId } = await createWorkspace();
		await fc.assert(
			fc.asyncProperty(rawBody, fc.string({ maxLength: 100 }), async (raw, id) => {
				await expectDocumentedError(await call("POST", "/api/projects", { key: apiKey, rawBody: raw }));
				await expectDocumentedError(
					await call("PUT", `/api/workspaces/${encodeURIComponent(id) || workspaceId}/webhook`, {
						key: apiKey,
						rawBody: raw,
					}),
				);
				const login = await call("POST", "/api/auth/login", { rawBody: raw });
				await expectDocumentedError(login);
				expect(login.status).not.toBe(200);
			}),
			{ numRuns: 30 },
		);
	});

	it("session-only key management under random bodies", async () => {
		const user = await createUser();
		const cookie = await signIn(user.email, user.password);
		await fc.assert(
			fc.asyncProperty(rawBody, fc.string({ maxLength: 100 }), async (raw, id) => {
				const created = await call("POST", "/api/api-keys", { headers: { cookie }, rawBody: raw });
				await expectDocumentedError(created);
				await expectDocumentedError(
					await call("DELETE", `/api/api-keys/${encodeURIComponent(id) || "x"}`, { headers: { cookie } }),
				);
			}),
			{ numRuns: 30 },
		);
	});

	it("hostile Authorization headers are always a 401 in the documented body", async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.oneof(
					fc.string(),
					fc.string().map((s) => `Bearer ${s}`),
					fc.string().map((s) => `Bearer cf_live_${s}`),
				),
				async (authorization) => {
					const result = await call("POST", "/api/videos/hosted", {
						headers: { authorization: authorization.replace(/[\r\n\0]/g, "") || "x" },
						body: { hostedUrl: "https://example.com/v" },
					});
					expect(result.status).toBe(401);
					await expectDocumentedError(result);
				},
			),
			{ numRuns: RUNS },
		);
	});
});
