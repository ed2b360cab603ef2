/**
 * The "rank moments" step on a 3-hour transcript fits one Worker isolate: each ranking (offline,
 * ClipBasic's and ClipPro's, with an instant stand-in model) runs in a Node process whose heap is
 * capped at 128 MB, and would die rather than pass if it needed more. Its CPU time is measured by
 * `npm run bench:rank-step` (bench-results/rank-step.json), never asserted here.
 */
import { expect, it } from "vitest";
import { ISOLATE_MEMORY_MB, measureRankStep } from "./bench-rank-step.ts";

it("ranks a 3-hour transcript within 128 MB of heap, every way", () => {
	const results = measureRankStep(3 * 3600);
	expect(results.map((r) => r.case)).toEqual(["offline", "ClipBasic", "ClipPro"]);
	for (const r of results) {
		expect(r.words, r.case).toBeGreaterThan(20_000);
		expect(r.clips, r.case).toBeGreaterThan(0);
		expect(r.heapTotalMB, r.case).toBeLessThan(ISOLATE_MEMORY_MB);
	}
}, 180_000);
