/**
 * Sums up the `[platform-limits]` line each Workers-runtime test file prints (platform-guard.ts):
 * the largest D1 statement, bound parameters and queries per invocation, the largest workflow step
 * result, instance params and steps per instance seen in the whole run, each beside its limit.
 *
 * With LIMITS_RECORD set (`npm run limits:report` runs the suite so), it also writes them, with the
 * figures tests measured (`[limits-figure]` lines, test/helpers/limit-figures.ts) and the test
 * files that ran, into bench-results/limits-runtime.json, which docs/limits.md's figures come from.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { UserConsoleLog } from "vitest";
import type { Reporter, TestModule } from "vitest/node";
import { FIGURE_PREFIX } from "../helpers/limit-figures.ts";
import { D1_LIMITS, R2_OPS_PER_INVOCATION, WORKFLOW_LIMITS } from "../helpers/platform-limits.ts";

interface Largest {
	value: number;
	where: string;
}

const PREFIX = "[platform-limits] ";
const LIMITS: Record<string, [number, string]> = {
	boundParameters: [D1_LIMITS.boundParameters, "D1 bound parameters in one query"],
	statementBytes: [D1_LIMITS.statementBytes, "D1 statement bytes"],
	valueBytes: [D1_LIMITS.valueBytes, "bytes of one value bound in a D1 query"],
	queriesPerInvocation: [D1_LIMITS.queriesPerInvocation, "D1 queries in one invocation"],
	r2OpsPerInvocation: [R2_OPS_PER_INVOCATION, "R2 operations in one invocation"],
	stepResultBytes: [WORKFLOW_LIMITS.stepResultBytes, "bytes of a workflow step's result"],
	paramsBytes: [WORKFLOW_LIMITS.stepResultBytes, "bytes of a workflow instance's params"],
	stepsPerInstance: [WORKFLOW_LIMITS.stepsPerInstance, "steps of one workflow instance"],
};

/** Hides the per-file lines from the default reporter (vitest's `onConsoleLog`). */
export const hidePlatformLimitLines = (log: string): false | void =>
	log.startsWith(PREFIX) || log.startsWith(FIGURE_PREFIX) ? false : undefined;

const ROOT = join(import.meta.dirname, "..", "..");
export const RUNTIME_FIGURES_FILE = join(ROOT, "bench-results", "limits-runtime.json");

export default class PlatformLimitsReporter implements Reporter {
	private readonly largest = new Map<string, Largest>();
	private readonly figures: Record<string, unknown> = {};

	onUserConsoleLog(log: UserConsoleLog): void {
		// The pool may hand over several console lines of a test as one log: each line is read.
		for (const line of log.content.split("\n")) {
			if (line.startsWith(FIGURE_PREFIX)) {
				const { name, value } = JSON.parse(line.slice(FIGURE_PREFIX.length)) as {
					name: string;
					value: unknown;
				};
				this.figures[name] = value;
			} else if (line.startsWith(PREFIX)) {
				const seen = JSON.parse(line.slice(PREFIX.length)) as Record<string, Largest>;
				for (const [key, value] of Object.entries(seen)) {
					if (value.value > (this.largest.get(key)?.value ?? -1)) this.largest.set(key, value);
				}
			}
		}
	}

	onTestRunEnd(modules: readonly TestModule[]): void {
		if (process.env.LIMITS_RECORD) this.record(modules);
		if (this.largest.size === 0) return;
		const lines = Object.entries(LIMITS).map(([key, [limit, what]]) => {
			const seen = this.largest.get(key) ?? { value: 0, where: "" };
			return `  ${what}: largest ${seen.value.toLocaleString("en")} of ${limit.toLocaleString("en")}${seen.where ? ` (${seen.where})` : ""}`;
		});
		console.log(
			`\nPlatform limits (test/setup/platform-guard.ts), largest seen in this run:\n${lines.join("\n")}\n`,
		);
	}

	/** The run's largest values and figures, for docs/limits.md (only a run that passed is recorded). */
	private record(modules: readonly TestModule[]): void {
		if (modules.some((m) => m.state() !== "passed")) {
			console.error("limits: a test failed, so nothing was recorded");
			return;
		}
		const guard = Object.fromEntries(
			Object.keys(LIMITS).map((key) => [key, this.largest.get(key) ?? { value: 0, where: "" }]),
		);
		const files = modules.map((m) => relative(ROOT, m.moduleId)).sort();
		mkdirSync(join(ROOT, "bench-results"), { recursive: true });
		writeFileSync(
			RUNTIME_FIGURES_FILE,
			`${JSON.stringify({ measuredAt: new Date().toISOString(), files, guard, figures: this.figures }, null, 2)}\n`,
		);
		console.log(`limits: recorded ${files.length} test files' figures in ${relative(ROOT, RUNTIME_FIGURES_FILE)}`);
	}
}
