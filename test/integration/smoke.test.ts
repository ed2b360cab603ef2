/**
 * The operator's smoke route (`/admin/smoke`, what `npm run smoke` calls): only OPERATOR_SECRET
 * opens it (no tenant key does; without the secret it does not exist), it checks every binding
 * for real and says what failed in words, its signed download serves the stored bytes and refuses
 * a forged token, and it leaves nothing behind in R2. Here the render tier is the test fake and
 * there is no AI binding (TRANSCRIBER=local): the LLM checks are skipped, saying why.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/worker/app";
import { purgeStaleSmokeRuns, type SmokeReport } from "../../src/worker/services/smoke/checks";
import { createWorkspace } from "../helpers/accounts";
import { BASE } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";

const fake = useFakeRenderTier({ introspect: false });
const operator = { authorization: `Bearer ${env.OPERATOR_SECRET}` };
const smoke = (headers: Record<string, string> = operator) =>
	exports.default.fetch(`${BASE}/admin/smoke`, { method: "POST", headers });

async function sha256(bytes: ArrayBuffer): Promise<string> {
	return Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)), (b) =>
		b.toString(16).padStart(2, "0"),
	).join("");
}

describe("/admin/smoke", () => {
	it("checks every binding, serves its signed download, and removes what it stored", async () => {
		const response = await smoke();
		expect(response.status).toBe(200);
		const report = (await response.json()) as SmokeReport;
		const byName = Object.fromEntries(report.checks.map((c) => [c.name, c]));
		expect(report.checks.map((c) => c.name)).toEqual([
			"D1",
			"R2",
			"Transcription (local, in the render tier)",
			"LLM for ClipBasic (LLM_FAST_MODEL)",
			"LLM for ClipPro (LLM_MODEL)",
			"Render tier (container)",
			"Workflows",
		]);
		expect(byName.D1).toMatchObject({
			status: "ok",
			detail: expect.stringMatching(/^read the schema and \d+ workspace\(s\)$/),
		});
		expect(byName.R2).toMatchObject({ status: "ok" });
		expect(byName["Transcription (local, in the render tier)"]).toMatchObject({
			status: "ok",
			detail: "2 s of audio transcribed (0 segment(s), language en)",
		});
		expect(byName["LLM for ClipBasic (LLM_FAST_MODEL)"]).toMatchObject({
			status: "skipped",
			detail: expect.stringContaining("ClipBasic ranks with the offline ranker"),
		});
		expect(byName["Render tier (container)"]).toMatchObject({
			status: "ok",
			detail: expect.stringContaining(
				`fetched a picture from ${env.INTERNAL_BASE_URL} and stored its 16x16 conversion back`,
			),
		});
		expect(byName.Workflows).toMatchObject({
			status: "ok",
			detail: expect.stringMatching(/^instance smoke-\w+ created, ran its step and completed$/),
		});
		expect(report.ok).toBe(true);

		// The download, signed as clip downloads are: the stored bytes, and a forged token refused.
		const download = await exports.default.fetch(report.download.url);
		expect(download.status).toBe(200);
		expect(await sha256(await download.arrayBuffer())).toBe(report.download.sha256);
		const forged = report.download.url.replace(
			/token=(\d+)\.(.)/,
			(_, exp, first) => `token=${exp}.${first === "A" ? "B" : "A"}`,
		);
		expect((await exports.default.fetch(forged)).status).toBe(403);

		const cleanup = await exports.default.fetch(`${BASE}/admin/smoke/${report.runId}`, {
			method: "DELETE",
			headers: operator,
		});
		expect(await cleanup.json()).toEqual({ removed: 1, left: 0 });
		expect((await env.MEDIA.list({ prefix: `smoke/${report.runId}/` })).objects).toEqual([]);
		expect((await exports.default.fetch(report.download.url)).status).toBe(404);
	});

	it("says in words what is wrong with a sick render tier, and fails the run", async () => {
		fake().healthProblems = [
			"ffmpeg lacks the filters ass.",
			"Fonts are missing: /usr/share/fonts/truetype/lato/Lato-Black.ttf.",
		];
		const report = (await (await smoke()).json()) as SmokeReport;
		expect(report.ok).toBe(false);
		expect(report.checks.find((c) => c.name === "Render tier (container)")).toMatchObject({
			status: "failed",
			detail: "its health check answered 503: ffmpeg lacks the filters ass. Fonts are missing: /usr/share/fonts/truetype/lato/Lato-Black.ttf.",
		});
		await exports.default.fetch(`${BASE}/admin/smoke/${report.runId}`, { method: "DELETE", headers: operator });
	});

	it("opens only to OPERATOR_SECRET: not to a tenant's API key, not without it; and does not exist without the secret", async () => {
		const { apiKey } = await createWorkspace({ minutes: 1 });
		const attempts: Record<string, string>[] = [
			{},
			{ authorization: `Bearer ${apiKey}` },
			{ authorization: `Bearer ${env.OPERATOR_SECRET}x` },
			{ authorization: env.OPERATOR_SECRET! },
		];
		for (const headers of attempts) {
			const response = await smoke(headers);
			expect(response.status).toBe(401);
			expect(await response.json()).toMatchObject({
				error: { code: "unauthorized", message: "The operator key is not valid." },
			});
		}
		expect(
			(
				await exports.default.fetch(`${BASE}/admin/smoke/abcdefabcdef1234`, {
					method: "DELETE",
					headers: { authorization: `Bearer ${apiKey}` },
				})
			).status,
		).toBe(401);
		const app = createApp();
		const ctx = {
			waitUntil: () => undefined,
			passThroughOnException: () => undefined,
			props: {},
		} as unknown as ExecutionContext;
		for (const secret of [undefined, "too-short"]) {
			const response = await app.fetch(
				new Request(`${BASE}/admin/smoke`, { method: "POST", headers: operator }),
				{ ...env, OPERATOR_SECRET: secret },
				ctx,
			);
			expect(response.status).toBe(404);
		}
	});

	it("the cron removes a run's objects its CLI never came back for, after an hour", async () => {
		const key = `smoke/${crypto.randomUUID().replaceAll("-", "")}/download.bin`;
		await env.MEDIA.put(key, "x");
		expect(await purgeStaleSmokeRuns(env.MEDIA)).toBe(0);
		expect(await purgeStaleSmokeRuns(env.MEDIA, Date.now() + 61 * 60_000)).toBeGreaterThanOrEqual(1);
		expect(await env.MEDIA.head(key)).toBeNull();
	});
});
