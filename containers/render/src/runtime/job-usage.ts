/**
 * What each job cost the instance in CPU, for the operator's bill (`npm run bench:cost`): Containers
 * bill CPU by active use, so the seconds the job's processes ran (user + system) are its vCPU-seconds.
 * The kernel keeps that account for every waited-for child in this process's own stat (`cutime` and
 * `cstime` of /proc/self/stat); each time one of a job's processes exits, the growth since the last
 * exit is charged to that job. Two processes exiting in the same turn of the event loop are both
 * charged to the first (rare; the total stays exact). Off Linux there is no such file: 0.
 */
import { readFileSync } from "node:fs";
import type { JobContext } from "./job-context.ts";

/** Kernel clock ticks in a millisecond (CLK_TCK is 100 on Linux). */
const MS_PER_TICK = 10;
const charged = new WeakMap<JobContext, number>();
let seen = childrenCpuMs();

/** CPU milliseconds of every exited child of this process, or 0 where the kernel does not say. */
function childrenCpuMs(): number {
	try {
		const stat = readFileSync("/proc/self/stat", "utf8");
		// Fields after the command name's closing parenthesis; cutime and cstime are the 16th and 17th of the line.
		const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
		return (Number(fields[13]) + Number(fields[14])) * MS_PER_TICK;
	} catch {
		return 0;
	}
}

/** After one of `job`'s processes exited: the CPU it used is charged to the job. */
export function chargeExitedProcess(job: JobContext | undefined): void {
	const now = childrenCpuMs();
	const used = now - seen;
	seen = now;
	if (job && used > 0) charged.set(job, (charged.get(job) ?? 0) + used);
}

/** The CPU milliseconds charged to `job` so far. */
export const jobCpuMs = (job: JobContext | undefined): number => (job ? (charged.get(job) ?? 0) : 0);
