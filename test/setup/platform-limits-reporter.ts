/**
 * Sums up the `[platform-limits]` line each Workers-runtime test file prints (platform-guard.ts):
 * the largest D1 statement, bound parameters and queries per invocation, the largest workflow step
 * result, instance params and steps per instance seen in the whole run, each beside its limit.
 */
import type { UserConsoleLog } from "vitest";
import type { Reporter } from "vitest/node";
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
export const hidePlatformLimitLines = (log: string): false | void => (log.startsWith(PREFIX) ? false : undefined);

export default class PlatformLimitsReporter implements Reporter {
	private readonly largest = new Map<string, Largest>();

	onUserConsoleLog(log: UserConsoleLog): void {
		if (!log.content.startsWith(PREFIX)) return;
		const seen = JSON.parse(log.content.slice(PREFIX.length)) as Record<string, Largest>;
		for (const [key, value] of Object.entries(seen)) {
			if (value.value > (this.largest.get(key)?.value ?? -1)) this.largest.set(key, value);
		}
	}

	onTestRunEnd(): void {
		if (this.largest.size === 0) return;
		const lines = Object.entries(LIMITS).map(([key, [limit, what]]) => {
			const seen = this.largest.get(key) ?? { value: 0, where: "" };
			return `  ${what}: largest ${seen.value.toLocaleString("en")} of ${limit.toLocaleString("en")}${seen.where ? ` (${seen.where})` : ""}`;
		});
		console.log(
			`\nPlatform limits (test/setup/platform-guard.ts), largest seen in this run:\n${lines.join("\n")}\n`,
		);
	}
}
