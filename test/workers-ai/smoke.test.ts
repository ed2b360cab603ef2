/**
 * The smoke route against the Workers AI binding (the stub refuses what Workers AI refuses): a 2 s
 * Whisper call and a tiny JSON-mode call on each configured model; a model outside the catalogue
 * is reported as a failure naming the variable.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/worker/app";
import type { SmokeReport } from "../../src/worker/services/smoke/checks";
import { BASE } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";

useFakeRenderTier({ introspect: false });
const operator = { authorization: `Bearer ${env.OPERATOR_SECRET}` };
const ctx = {
	waitUntil: () => undefined,
	passThroughOnException: () => undefined,
	props: {},
} as unknown as ExecutionContext;

describe("/admin/smoke with Workers AI", () => {
	it("calls Whisper with 2 s of audio and each configured model in JSON mode", async () => {
		const report = (await (
			await exports.default.fetch(`${BASE}/admin/smoke`, { method: "POST", headers: operator })
		).json()) as SmokeReport;
		const byName = Object.fromEntries(report.checks.map((c) => [c.name, c]));
		expect(byName["Workers AI: Whisper"]).toMatchObject({
			status: "ok",
			detail: "2 s of audio transcribed (0 segment(s), language en)",
		});
		expect(byName["LLM for ClipBasic (LLM_FAST_MODEL)"]).toMatchObject({
			status: "ok",
			detail: 'workers-ai:@cf/meta/llama-4-scout-17b-16e-instruct answered {"ok": true} in JSON mode',
		});
		expect(byName["LLM for ClipPro (LLM_MODEL)"]).toMatchObject({
			status: "ok",
			detail: 'workers-ai:@cf/meta/llama-3.3-70b-instruct-fp8-fast answered {"ok": true} in JSON mode',
		});
		expect(report.ok).toBe(true);
		await exports.default.fetch(`${BASE}/admin/smoke/${report.runId}`, { method: "DELETE", headers: operator });
	});

	it("reports a configured model Workers AI would refuse, naming the variable", async () => {
		const response = await createApp().fetch(
			new Request(`${BASE}/admin/smoke`, { method: "POST", headers: operator }),
			{ ...env, LLM_FAST_MODEL: "@cf/meta/llama-3.1-8b-instruct-fast" },
			ctx,
		);
		const report = (await response.json()) as SmokeReport;
		expect(report.ok).toBe(false);
		expect(report.checks.find((c) => c.name === "LLM for ClipBasic (LLM_FAST_MODEL)")).toMatchObject({
			status: "failed",
			detail: expect.stringMatching(
				/^LLM_FAST_MODEL = "@cf\/meta\/llama-3\.1-8b-instruct-fast" is not a Workers AI model with JSON mode/,
			),
		});
		await exports.default.fetch(`${BASE}/admin/smoke/${report.runId}`, { method: "DELETE", headers: operator });
	});
});
