/**
 * bench:plan's simulator: virtual time and shared cores behave as stated, and the deployment that
 * wrangler.toml configures for production meets the 30-minute budget the docs promise.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { containerConfig, wranglerVars } from "../../scripts/wrangler-vars.ts";
import { BUDGET_VIDEO, DEFAULT_COSTS, PLATFORM } from "./costs.ts";
import { simulate } from "./simulate.ts";
import { SharedCpu, VirtualClock } from "./virtual-clock.ts";

const toml = readFileSync(new URL("../../wrangler.toml", import.meta.url), "utf8");
const production = {
	vars: wranglerVars(toml),
	instanceType: containerConfig(toml).instanceType,
	costs: DEFAULT_COSTS,
	platform: { ...PLATFORM },
	video: BUDGET_VIDEO,
};

describe("virtual time", () => {
	it("shares a machine's cores between the jobs on it", async () => {
		const clock = new VirtualClock();
		const cpu = new SharedCpu(clock, 2, (cores) => cores);
		const ends: number[] = [];
		await clock.run(async () => {
			// Three one-thread jobs of 6 CPU seconds on two cores: 2/3 of a core each, so all end at 9 s.
			await Promise.all([0, 1, 2].map(() => cpu.work(6, 1).then(() => ends.push(clock.now))));
		});
		expect(ends.map((t) => Math.round(t * 1000) / 1000)).toEqual([9, 9, 9]);
		const alone = new VirtualClock();
		const four = new SharedCpu(alone, 4, (cores) => cores * 0.9);
		expect(await alone.run(async () => (await four.work(36, 4), alone.now))).toBeCloseTo(10, 6);
	});
});

describe("the production deployment", () => {
	it("meets the 90 s budget for a 30-minute source, with the renders' start right after the ranking", async () => {
		const planned = await simulate(production);
		expect(planned.wallSeconds).toBeLessThanOrEqual(90);
		const at = (step: string) => planned.steps.find((s) => s.step === step)!;
		for (const render of planned.steps.filter((s) => s.step.startsWith("render clip")))
			expect(render.from).toBeCloseTo(at("rank moments").to, 6);
		// The upload is off the critical path: the words never waited for it.
		expect(planned.criticalPath.map((s) => s.step)).not.toContain("upload source");
	});

	it("replays the workflow's render pool: one render at a time adds the clips up, one instance each runs them side by side", async () => {
		const one = await simulate({
			...production,
			vars: { ...production.vars, RENDER_PARALLELISM: "1", RENDER_INSTANCES: "1" },
		});
		const many = await simulate(production);
		const renders = (s: typeof one) => s.steps.filter((x) => x.step.startsWith("render clip"));
		expect(Math.max(...renders(one).map((r) => r.to - r.from))).toBeLessThan(40);
		// One after another on one instance: the render stage lasts about the sum of the clips' encodes.
		const stage = (s: typeof one) =>
			Math.max(...renders(s).map((r) => r.to)) - Math.min(...renders(s).map((r) => r.from));
		expect(stage(one)).toBeGreaterThan(3 * stage(many));
		expect(new Set(renders(many).map((r) => r.instance)).size).toBe(BUDGET_VIDEO.clipSeconds.length);
	});
});
