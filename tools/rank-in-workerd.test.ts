/**
 * The "rank moments" step on a 3-hour transcript fits in workerd, the runtime production runs, with
 * a real margin: offline, ClipBasic's and ClipPro's rankings each finish under a V8 heap capped at
 * half a Worker's 128 MB, the whole Worker's code loaded (tools/limits/rank-in-workerd.ts; over the
 * cap the runtime dies and the ranking fails). The figures (the smallest cap that works, the
 * longest transcript under 128 MB) are `npm run limits:report`'s, never asserted here.
 */
import { expect, it } from "vitest";
import { CASES, ISOLATE_MB, ranksWithin } from "./limits/rank-in-workerd.ts";

it("ranks 3 hours within half a Worker's memory, every way, inside workerd", async () => {
	for (const which of CASES) expect(await ranksWithin(which, 3, ISOLATE_MB / 2), which).toBe(true);
}, 240_000);
