/** The soak's ledger rule: it must pass an exact ledger and catch each way one can be wrong. */
import { describe, expect, it } from "vitest";
import { checkBalances, percentile } from "./checks.ts";

const grant = { workspace_id: "wsp_1", video_id: null, kind: "grant", minutes: 100 };
const charge = (video: string, minutes: number) => ({
	workspace_id: "wsp_1",
	video_id: video,
	kind: "charge",
	minutes: -minutes,
});
const refund = (video: string, minutes: number) => ({
	workspace_id: "wsp_1",
	video_id: video,
	kind: "refund",
	minutes,
});
const videos = [
	{ id: "vid_done", workspaceId: "wsp_1", status: "completed", minutesCharged: 2 },
	{ id: "vid_failed", workspaceId: "wsp_1", status: "failed", minutesCharged: 1 },
];

describe("checkBalances", () => {
	it("passes a ledger where completed videos are charged once and failed ones refunded exactly", () => {
		const [check] = checkBalances(
			[grant, charge("vid_done", 2), charge("vid_failed", 1), refund("vid_failed", 1)],
			[{ id: "wsp_1", balance: 98 }],
			videos,
		);
		expect(check).toMatchObject({ ok: true, granted: 100, ledgerSum: 98, expected: 98, problems: [] });
	});

	it("catches a failed video not refunded, a completed one refunded, a double charge and a balance off its ledger", () => {
		const cases = [
			{
				rows: [grant, charge("vid_done", 2), charge("vid_failed", 1)],
				balance: 97,
				problem: /vid_failed: failed, charged 1, refunded 0/,
			},
			{
				rows: [
					grant,
					charge("vid_done", 2),
					refund("vid_done", 2),
					charge("vid_failed", 1),
					refund("vid_failed", 1),
				],
				balance: 100,
				problem: /vid_done: completed but refunded 2/,
			},
			{
				rows: [
					grant,
					charge("vid_done", 2),
					charge("vid_done", 2),
					charge("vid_failed", 1),
					refund("vid_failed", 1),
				],
				balance: 96,
				problem: /vid_done: charged 4 in 2 row/,
			},
			{
				rows: [grant, charge("vid_done", 2), charge("vid_failed", 1), refund("vid_failed", 1)],
				balance: 99,
				problem: /balance 99 ≠ ledger sum 98/,
			},
		];
		for (const { rows, balance, problem } of cases) {
			const [check] = checkBalances(rows, [{ id: "wsp_1", balance }], videos);
			expect(check!.ok).toBe(false);
			expect(check!.problems.join("; ")).toMatch(problem);
		}
	});
});

describe("percentile", () => {
	it("is the nearest rank", () => {
		expect(percentile([], 50)).toBeNull();
		expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3);
		expect(
			percentile(
				Array.from({ length: 100 }, (_, i) => i + 1),
				99,
			),
		).toBe(99);
	});
});
