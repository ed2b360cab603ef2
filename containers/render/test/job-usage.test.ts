/**
 * Each job's CPU (job-usage.ts): what its processes spent is charged to it when they exit, and to
 * no other job, so the tier's job log can say what every job cost (bench:cost reads it).
 */
import { describe, expect, it } from "vitest";
import { runAsJob, runningJob } from "../src/runtime/job-context.ts";
import { jobCpuMs } from "../src/runtime/job-usage.ts";
import { runProcess } from "../src/runtime/run-process.ts";

/** A Node process that computes for a while and prints the CPU milliseconds it counted itself. */
const busyWork = [
	"-e",
	"let x = 0; for (let i = 0; i < 3e8; i++) x += i % 7; const u = process.cpuUsage(); console.log((u.user + u.system) / 1000, x);",
];

describe("a job's CPU", () => {
	it("is what its processes spent, charged to it alone", async () => {
		const [[busy, ownCount], idle] = await Promise.all([
			runAsJob("busy", async () => {
				const { stdout } = await runProcess(process.execPath, busyWork, { timeoutMs: 60_000 });
				return [jobCpuMs(runningJob()), Number(stdout.split(" ")[0])];
			}),
			runAsJob("idle", async () => {
				await runProcess("sleep", ["0.2"], { timeoutMs: 30_000 });
				return jobCpuMs(runningJob());
			}),
		]);
		// The kernel's count in 10 ms ticks, against the process's own (which misses its start and exit).
		expect(ownCount).toBeGreaterThan(100);
		expect(busy).toBeGreaterThanOrEqual(ownCount - 20);
		expect(busy).toBeLessThan(ownCount + 200);
		expect(idle).toBeLessThan(100);
	});
});
