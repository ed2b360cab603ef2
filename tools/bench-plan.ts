/**
 * `npm run bench:plan`: the production time budget of a 30-minute video, predicted by replaying
 * the stage costs through the workflow's real scheduling code (tools/plan/simulate.ts) on the
 * deployment wrangler.toml configures (its [vars] fan-out and pools, its container instance type).
 * Prints the predicted end-to-end time, the critical path, and how it moves with the number of
 * render instances and with the figures the platform does not publish; writes bench-results/plan.json.
 *
 *   npm run bench:plan                       # the configured production deployment
 *   npm run bench:plan -- --instances 8      # the same with 8 render instances (and at most 8 renders at once)
 *   npm run bench:plan -- --instance-type standard-2
 *   npm run bench:plan -- --measure          # first measure the CPU costs here again (bench-results/stage-costs.json)
 *   npm run bench:plan -- --load             # a busy day at 1,000, 10,000 and 100,000 videos (tools/plan/load.ts)
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { containerConfig, wranglerVars } from "../scripts/wrangler-vars.ts";
import { BUDGET_VIDEO, DEFAULT_COSTS, PLATFORM, type MeasuredCosts } from "./plan/costs.ts";
import { measureCosts } from "./plan/measure.ts";
import { poolsOf, simulate, type Platform, type SimulationInput } from "./plan/simulate.ts";

const BUDGET_SECONDS = 90;
const COSTS_FILE = "bench-results/stage-costs.json";

const { values } = parseArgs({
	options: {
		instances: { type: "string" },
		"instance-type": { type: "string" },
		measure: { type: "boolean", default: false },
		load: { type: "boolean", default: false },
	},
});
const toml = readFileSync(new URL("../wrangler.toml", import.meta.url), "utf8");
const vars = wranglerVars(toml);
if (values.instances) {
	vars.RENDER_INSTANCES = values.instances;
	vars.RENDER_PARALLELISM = String(Math.min(Number(vars.RENDER_PARALLELISM), Number(values.instances)));
}
const instanceType = values["instance-type"] ?? containerConfig(toml).instanceType;

mkdirSync("bench-results", { recursive: true });
if (values.measure) writeFileSync(COSTS_FILE, `${JSON.stringify(await measureCosts(), null, 2)}\n`);
const costs: MeasuredCosts = existsSync(COSTS_FILE)
	? (JSON.parse(readFileSync(COSTS_FILE, "utf8")) as MeasuredCosts)
	: DEFAULT_COSTS;
const platform: Platform = { ...PLATFORM };
const base: SimulationInput = { vars, instanceType, costs, platform, video: BUDGET_VIDEO };

if (values.load) {
	const { busyDay } = await import("./plan/busy-day.ts");
	await busyDay({ vars, instanceType, costs, platform });
	process.exit(0);
}

const planned = await simulate(base);
const round1 = (n: number) => Math.round(n * 10) / 10;
const predict = async (change: Partial<Omit<SimulationInput, "platform">> & { platform?: Partial<Platform> }) =>
	round1((await simulate({ ...base, ...change, platform: { ...platform, ...change.platform } })).wallSeconds);

const sweep: Record<string, number> = {};
for (const n of [1, 2, 4, 8, 16, 32]) {
	sweep[`${n} render instances`] = await predict({
		vars: { ...vars, RENDER_INSTANCES: String(n), RENDER_PARALLELISM: String(n) },
	});
}
const sensitivity = {
	"Whisper 20x real time": await predict({ platform: { whisperRealtimeFactor: 20 } }),
	"Whisper 100x real time": await predict({ platform: { whisperRealtimeFactor: 100 } }),
	"cold start 1 s": await predict({ platform: { containerColdStartSeconds: 1 } }),
	"cold start 10 s": await predict({ platform: { containerColdStartSeconds: 10 } }),
	"source host at 25 MB/s": await predict({ platform: { originMegabytesPerSecond: 25 } }),
	"LLM ranking 30 s": await predict({ platform: { llmRankSeconds: 30 } }),
	"instance type standard-2 (1 vCPU)": await predict({ instanceType: "standard-2" }),
	"instance type standard-3 (2 vCPU)": await predict({ instanceType: "standard-3" }),
	"instance type standard-4 (4 vCPU)": await predict({ instanceType: "standard-4" }),
};

const report = {
	measuredAt: new Date().toISOString(),
	video: BUDGET_VIDEO,
	deployment: { instanceType, vcpusPerInstance: platform.vcpus[instanceType], ...poolsOf(vars) },
	costs,
	platform,
	predictedSeconds: round1(planned.wallSeconds),
	budgetSeconds: BUDGET_SECONDS,
	withinBudget: planned.wallSeconds <= BUDGET_SECONDS,
	instancesUsed: planned.instancesUsed,
	criticalPath: planned.criticalPath.map((s) => ({
		step: s.step,
		from: round1(s.from),
		to: round1(s.to),
		seconds: round1(s.to - s.from),
	})),
	steps: planned.steps.map((s) => ({ ...s, from: round1(s.from), to: round1(s.to) })),
	renderInstancesSweep: sweep,
	sensitivity,
};
writeFileSync("bench-results/plan.json", `${JSON.stringify(report, null, 2)}\n`);

console.log(
	`A ${BUDGET_VIDEO.minutes}-minute source, ${BUDGET_VIDEO.clipSeconds.length} clips (${BUDGET_VIDEO.clipSeconds.join(", ")} s), on ${instanceType} instances`,
);
console.log(
	`(fan-out: ${report.deployment.fanOut.transcriptions} chunks of ${report.deployment.audioChunkSeconds} s and ${report.deployment.fanOut.renders} renders at once; ${report.deployment.render} render and ${report.deployment.video} video instances)`,
);
console.log(
	`\npredicted end to end: ${report.predictedSeconds} s (budget ${BUDGET_SECONDS} s: ${report.withinBudget ? "met" : "NOT met"})\n\ncritical path:`,
);
for (const s of report.criticalPath)
	console.log(`  ${String(s.from).padStart(6)} → ${String(s.to).padStart(6)} s  ${s.step}`);
console.log("\nrender instances (renders at once = instances):");
for (const [what, s] of Object.entries(sweep)) console.log(`  ${what.padEnd(36)} ${s} s`);
console.log("\nif a figure the platform does not publish is otherwise:");
for (const [what, s] of Object.entries(sensitivity)) console.log(`  ${what.padEnd(36)} ${s} s`);
console.log(
	`\nbench-results/plan.json (costs: ${existsSync(COSTS_FILE) ? COSTS_FILE : "built-in defaults"}, measured ${costs.measuredAt})`,
);
