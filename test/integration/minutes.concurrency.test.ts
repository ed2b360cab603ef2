import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { balanceOf, createWorkspace, ledgerSum } from "../helpers/accounts";
import { call } from "../helpers/api";
import { useFakeRenderTier } from "../helpers/fake-render-tier";

const fake = useFakeRenderTier();

describe("minutes under concurrent submissions", () => {
	it("never overdraws: 12 submissions of 2-minute videos against 5 minutes → exactly 2 accepted", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 5 });
		const results = await Promise.all(
			Array.from({ length: 12 }, () => {
				const hostedUrl = fake().addSource(`https://videos.example.com/c/${crypto.randomUUID()}`, {
					duration: 100,
				});
				return call("POST", "/api/videos/hosted", { key: apiKey, body: { hostedUrl } });
			}),
		);
		const statuses = results.map((r) => r.status).sort();
		expect(statuses.filter((s) => s === 201)).toHaveLength(2);
		// The rest are refused: for minutes (402), or before any probe past the workspace's 10 probes
		// per 10 s (429, nothing charged either).
		expect(statuses.filter((s) => s === 402 || s === 429)).toHaveLength(10);
		expect(statuses.filter((s) => s === 429).length).toBeLessThanOrEqual(2);
		for (const refused of results.filter((r) => r.status === 402))
			expect(refused.body.error.code).toBe("insufficient_minutes");
		expect(await balanceOf(workspaceId)).toBe(1);
		expect(await ledgerSum(workspaceId)).toBe(1);
	});

	it("50 concurrent submissions against a balance that covers 10 → exactly 10 accepted, 40 refused with 402 or 429", async () => {
		const { apiKey, workspaceId } = await createWorkspace({ minutes: 10 });
		const results = await Promise.all(
			Array.from({ length: 50 }, () => {
				const hostedUrl = fake().addSource(`https://videos.example.com/c50/${crypto.randomUUID()}`, {
					duration: 60,
				});
				return call("POST", "/api/videos/hosted", { key: apiKey, body: { hostedUrl } });
			}),
		);
		expect(results.filter((r) => r.status === 201)).toHaveLength(10);
		// Refused for minutes (402), or before any probe past the workspace's 10 probes per 10 s (429).
		const refused = results.filter((r) => r.status !== 201);
		expect(refused.filter((r) => r.status === 402 || r.status === 429)).toHaveLength(40);
		expect(
			refused.every((r) =>
				r.status === 429 ? r.body.error.code === "rate_limited" : r.body.error.details.required === 1,
			),
		).toBe(true);
		expect(await balanceOf(workspaceId)).toBe(0);
		expect(await ledgerSum(workspaceId)).toBe(0);
		const charged = await env.DB.prepare(
			"SELECT COUNT(*) AS n FROM minutes_ledger WHERE workspace_id = ? AND kind = 'charge'",
		)
			.bind(workspaceId)
			.first<number>("n");
		expect(charged).toBe(10);
	});
});
