import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/worker/index";
import { balanceOf, createWorkspace, ledgerSum } from "../helpers/accounts";
import { BASE, call, submitBodyAndProcess } from "../helpers/api";
import { interceptedEnvDb } from "../helpers/intercepted-db";
import { useFakeRenderTier, WEBHOOK_BASE } from "../helpers/fake-render-tier";
import { renderJobs } from "@clipforge/contract";
import { sha256Hex } from "../../src/worker/services/crypto";
import { IDEMPOTENCY_ABANDONED_SECONDS } from "../../src/worker/services/idempotency";
import { signWebhook } from "../../src/worker/services/webhooks";
import { introspectVideoRuns } from "../helpers/video-runs";

const fake = useFakeRenderTier({ introspect: false });

const source = (duration: number) =>
	fake().addSource(`https://videos.example.com/i/${crypto.randomUUID()}`, { duration });

describe("Idempotency-Key", () => {
	it("the same key and body return the first response and charge once", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 20 });
		const body = { hostedUrl: source(120) };
		const headers = { "idempotency-key": "order-42" };
		const first = await call("POST", "/api/videos/hosted", { key: apiKey, body, headers });
		const again = await call("POST", "/api/videos/hosted", { key: apiKey, body, headers });
		expect(first.status).toBe(201);
		expect(again.status).toBe(201);
		expect(again.body).toEqual(first.body);
		expect(again.response.headers.get("idempotent-replayed")).toBe("true");
		expect(await balanceOf(workspaceId)).toBe(18);
		expect(await ledgerSum(workspaceId)).toBe(18);
		expect(fake().calls.filter((c) => c.path === renderJobs.probe.path)).toHaveLength(1);
	});

	it("the same key with another body → 409, nothing charged", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 20 });
		const headers = { "idempotency-key": "k-1" };
		await call("POST", "/api/videos/hosted", { key: apiKey, body: { hostedUrl: source(60) }, headers });
		const other = await call("POST", "/api/videos/hosted", {
			key: apiKey,
			body: { hostedUrl: source(60) },
			headers,
		});
		expect(other.status).toBe(409);
		expect(other.body.error.code).toBe("conflict");
		expect(await balanceOf(workspaceId)).toBe(19);
	});

	it("keys are per workspace, a refused first attempt frees its key, and a malformed key is a 400", async () => {
		const a = await createWorkspace({ minutes: 0 });
		const b = await createWorkspace({ minutes: 5 });
		const hostedUrl = source(60);
		const headers = { "idempotency-key": "shared" };
		expect((await call("POST", "/api/videos/hosted", { key: a.apiKey, body: { hostedUrl }, headers })).status).toBe(
			402,
		);
		expect((await call("POST", "/api/videos/hosted", { key: b.apiKey, body: { hostedUrl }, headers })).status).toBe(
			201,
		);
		await env.DB.batch([
			env.DB.prepare("UPDATE workspaces SET minutes_balance = 5 WHERE id = ?").bind(a.workspaceId),
			env.DB.prepare("INSERT INTO minutes_ledger (workspace_id, kind, minutes) VALUES (?, 'grant', 5)").bind(
				a.workspaceId,
			),
		]);
		expect((await call("POST", "/api/videos/hosted", { key: a.apiKey, body: { hostedUrl }, headers })).status).toBe(
			201,
		);
		const bad = await call("POST", "/api/videos/hosted", {
			key: a.apiKey,
			body: { hostedUrl },
			headers: { "idempotency-key": "has spaces" },
		});
		expect(bad.status).toBe(400);
		expect(bad.body.error.details[0].path).toBe("Idempotency-Key");
	});
	it("a key whose first request died before answering is a 409 for a moment, then accepted once, charged once", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 20 });
		const body = { hostedUrl: source(60) };
		const headers = { "idempotency-key": "lost-answer" };
		// What a first request leaves when D1 wrote its reservation and the answer was lost on the way back.
		const hash = await sha256Hex(JSON.stringify(body));
		const reserve = (at: Date) =>
			env.DB.prepare(
				"INSERT OR REPLACE INTO idempotency_keys (workspace_id, key, request_hash, created_at) VALUES (?, ?, ?, ?)",
			)
				.bind(workspaceId, headers["idempotency-key"], hash, at.toISOString())
				.run();
		await reserve(new Date(Date.now() - 10_000));
		const meanwhile = await call("POST", "/api/videos/hosted", { key: apiKey, body, headers });
		expect(meanwhile.status).toBe(409);
		expect(meanwhile.body.error.message).toMatch(/still being processed/);
		await reserve(new Date(Date.now() - (IDEMPOTENCY_ABANDONED_SECONDS + 5) * 1000));
		const retried = await call("POST", "/api/videos/hosted", { key: apiKey, body, headers });
		expect(retried.status).toBe(201);
		const again = await call("POST", "/api/videos/hosted", { key: apiKey, body, headers });
		expect(again.body).toEqual(retried.body);
		expect(await balanceOf(workspaceId)).toBe(19);
	});

	it("a key whose video was made but whose answer was never stored answers with that video, past the takeover too, never a second", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 20 });
		const body = { hostedUrl: source(60) };
		const headers = { "idempotency-key": "answer-not-stored" };
		const first = await call("POST", "/api/videos/hosted", { key: apiKey, body, headers });
		expect(first.status).toBe(201);
		// What the first request leaves when the video was created and charged and storing its answer
		// failed every time (D1 down): the reservation without a response, older than the takeover.
		const forgetAnswer = (age: number) =>
			env.DB.prepare(
				"UPDATE idempotency_keys SET response_status = NULL, response_body = NULL, created_at = ? WHERE workspace_id = ? AND key = ?",
			)
				.bind(new Date(Date.now() - age * 1000).toISOString(), workspaceId, headers["idempotency-key"])
				.run();
		for (const age of [10, IDEMPOTENCY_ABANDONED_SECONDS + 5]) {
			await forgetAnswer(age);
			const again = await call("POST", "/api/videos/hosted", { key: apiKey, body, headers });
			expect(again.status).toBe(201);
			expect(again.body.video.id).toBe(first.body.video.id);
		}
		const videos = await env.DB.prepare("SELECT id FROM videos WHERE workspace_id = ?").bind(workspaceId).all();
		expect(videos.results).toHaveLength(1);
		expect(await balanceOf(workspaceId)).toBe(19);
		expect(
			fake().calls.filter(
				(c) => c.path === renderJobs.probe.path && (c.body as { url?: string }).url === body.hostedUrl,
			),
		).toHaveLength(1);
	});
});

describe("Idempotency-Key, a first request that died between its charge and its workflow's start", () => {
	/**
	 * What such a request leaves: Workflows refused to start the instance, then the refund that
	 * settles it could not be written either (D1 failing from then on), so the request ended in a
	 * 503 with the video created, charged and named on its key, and nothing processing it.
	 */
	async function submitDyingBeforeStart(apiKey: string, body: unknown, key: string) {
		let d1Down = false;
		const db = interceptedEnvDb((_sql, execute) => {
			if (d1Down) return Promise.reject(new Error("D1_ERROR: Network connection lost."));
			return execute();
		});
		const workflows = {
			create: () => {
				d1Down = true;
				return Promise.reject(new Error("Workflows is unavailable"));
			},
		};
		const ctx = createExecutionContext();
		const response = await worker.fetch(
			new Request(`${BASE}/api/videos/hosted`, {
				method: "POST",
				headers: {
					authorization: `Bearer ${apiKey}`,
					"content-type": "application/json",
					"idempotency-key": key,
				},
				body: JSON.stringify(body),
			}),
			{ ...env, DB: db, PROCESS_VIDEO: workflows as unknown as typeof env.PROCESS_VIDEO },
			ctx,
		);
		await waitOnExecutionContext(ctx);
		return response;
	}

	it("its retry answers with that video and starts its processing: completed, charged once", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 20 });
		const body = { hostedUrl: source(60), config: { clipDurationMin: 10, clipDurationMax: 20 } };
		const died = await submitDyingBeforeStart(apiKey, body, "died-before-start");
		expect(died.status).toBe(503);
		const [row] = (
			await env.DB.prepare("SELECT id, status FROM videos WHERE workspace_id = ?")
				.bind(workspaceId)
				.all<{ id: string; status: string }>()
		).results;
		expect(row?.status).toBe("downloading");
		expect(await balanceOf(workspaceId)).toBe(19);

		await using introspector = await introspectVideoRuns();
		const retried = await call("POST", "/api/videos/hosted", {
			key: apiKey,
			body,
			headers: { "idempotency-key": "died-before-start" },
		});
		expect(retried.status).toBe(201);
		expect(retried.body.video.id).toBe(row!.id);
		const instances = await introspector.get();
		expect(instances).toHaveLength(1);
		await instances[0]!.waitForStatus("complete");
		const { body: status } = await call("GET", `/api/videos/${row!.id}/status`, { key: apiKey });
		expect(status.video.status).toBe("completed");
		expect(await balanceOf(workspaceId)).toBe(19);
		expect(await ledgerSum(workspaceId)).toBe(19);
	});
});

describe("webhooks", () => {
	it("POST a signed video.completed event, recorded as a delivery", async () => {
		const { apiKey, workspaceId } = await createWorkspace();
		const webhookUrl = `${WEBHOOK_BASE}done`;
		const submitted = await call("POST", "/api/videos/hosted", { key: apiKey, body: { hostedUrl: source(60) } });
		expect(submitted.status).toBe(201); // a video without webhookUrl sends nothing
		const videoId = await submitBodyAndProcess(apiKey, {
			hostedUrl: source(60),
			webhookUrl,
			config: { clipDurationMin: 10, clipDurationMax: 20 },
		});
		expect(fake().webhooks).toHaveLength(1);
		const hook = fake().webhooks[0]!;
		expect(hook.url).toBe(webhookUrl);
		const payload = JSON.parse(hook.body);
		expect(payload.event).toBe("video.completed");
		expect(payload.video).toMatchObject({ id: videoId, status: "completed", workspaceId });
		expect(payload.clipsCount).toBeGreaterThan(0);
		// Whether the video has chapters (GET …/chapters), without fetching them.
		expect(payload.chapters).toEqual({ count: 3, madeBy: "offline" });
		expect(hook.headers.get("x-clipforge-event")).toBe("video.completed");

		const secret = (await env.DB.prepare("SELECT webhook_secret AS s FROM workspaces WHERE id = ?")
			.bind(workspaceId)
			.first<string>("s"))!;
		const signature = hook.headers.get("x-clipforge-signature")!;
		const t = Number(/t=(\d+)/.exec(signature)![1]);
		expect(Math.abs(Date.now() / 1000 - t)).toBeLessThan(60);
		expect(signature).toBe(await signWebhook(secret, t, hook.body));

		const deliveries = await call("GET", `/api/videos/${videoId}/webhooks`, { key: apiKey });
		expect(deliveries.body.deliveries).toEqual([
			expect.objectContaining({
				event: "video.completed",
				url: webhookUrl,
				attempt: 1,
				statusCode: 200,
				error: null,
			}),
		]);
	});

	it("retries a failing receiver with backoff; the video stays completed", async () => {
		const { apiKey } = await createWorkspace();
		fake().webhookAnswers.push(500, 503);
		const videoId = await submitBodyAndProcess(apiKey, {
			hostedUrl: source(30),
			webhookUrl: `${WEBHOOK_BASE}flaky`,
			config: { skipClipping: true },
		});
		const { body } = await call("GET", `/api/videos/${videoId}/webhooks`, { key: apiKey });
		expect(body.deliveries.map((d: { attempt: number; statusCode: number }) => [d.attempt, d.statusCode])).toEqual([
			[1, 500],
			[2, 503],
			[3, 200],
		]);
		expect((await call("GET", `/api/videos/${videoId}/status`, { key: apiKey })).body.video.status).toBe(
			"completed",
		);
	});

	it("sends video.failed to the workspace's webhook when processing fails", async () => {
		const { apiKey, workspaceId } = await createWorkspace();
		const settings = await call("PUT", `/api/workspaces/${workspaceId}/webhook`, {
			key: apiKey,
			body: { url: `${WEBHOOK_BASE}ws` },
		});
		expect(settings.status).toBe(200);
		expect(settings.body.secret).toMatch(/^whsec_/);
		const hostedUrl = source(60);
		fake().failNext(renderJobs.download.path, {
			code: "unsupported_source",
			message: "The source answered HTTP 410.",
			retryable: false,
		});
		const videoId = await submitBodyAndProcess(apiKey, { hostedUrl, config: {} }, "errored");
		expect(fake().webhooks).toHaveLength(1);
		const payload = JSON.parse(fake().webhooks[0]!.body);
		expect(payload).toMatchObject({
			event: "video.failed",
			video: {
				id: videoId,
				status: "failed",
				errorMessage: "Downloading the source failed: The source answered HTTP 410.",
			},
			clipsCount: 0,
		});
		expect(payload).not.toHaveProperty("chapters");
		expect(
			await signWebhook(
				settings.body.secret,
				Number(/t=(\d+)/.exec(fake().webhooks[0]!.headers.get("x-clipforge-signature")!)![1]),
				fake().webhooks[0]!.body,
			),
		).toBe(fake().webhooks[0]!.headers.get("x-clipforge-signature"));
	});

	it("refuses a webhook URL that is not http(s), and another workspace's settings", async () => {
		const { apiKey, workspaceId } = await createWorkspace();
		const other = await createWorkspace();
		expect(
			(
				await call("POST", "/api/videos/hosted", {
					key: apiKey,
					body: { hostedUrl: source(60), webhookUrl: "ftp://x.example/y" },
				})
			).body.error.code,
		).toBe("invalid_url");
		expect(
			(
				await call("PUT", `/api/workspaces/${workspaceId}/webhook`, {
					key: apiKey,
					body: { url: "file:///etc/passwd" },
				})
			).status,
		).toBe(400);
		expect(
			(
				await call("PUT", `/api/workspaces/${other.workspaceId}/webhook`, {
					key: apiKey,
					body: { url: `${WEBHOOK_BASE}x` },
				})
			).status,
		).toBe(403);
		const cleared = await call("PUT", `/api/workspaces/${workspaceId}/webhook`, {
			key: apiKey,
			body: { url: null },
		});
		expect(cleared.body.url).toBeNull();
	});
});
