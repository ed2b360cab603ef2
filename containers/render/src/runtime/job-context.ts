/**
 * Which job of the contract the current code runs for, carried through every await of that job
 * (AsyncLocalStorage), so a process started deep inside it can say whose it was when it fails, and
 * every folder or file it works in is known to be in use (the sweep in sweep.ts leaves those alone).
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** One running job: its name and the work paths it holds (absolute). */
export interface JobContext {
	name: string;
	readonly holds: Set<string>;
}

const currentJob = new AsyncLocalStorage<JobContext>();

/** Runs `work` as job `name` (or in `context`): every process it starts is reported under that name. */
export function runAsJob<T>(name: string | JobContext, work: () => T): T {
	return currentJob.run(typeof name === "string" ? { name, holds: new Set() } : name, work);
}

/** The running job's context, if the caller runs for one. */
export const runningJob = (): JobContext | undefined => currentJob.getStore();

/** The job the caller runs for, or `unnamed` (a job function called directly, as some tests do). */
export function runningJobName(): string {
	return currentJob.getStore()?.name ?? "unnamed";
}

/**
 * Marks `path` (a folder or file under the work root) as used by the running job, so no sweep
 * removes it while the job runs. Outside a job (a direct call in a test) it does nothing.
 * @example const dir = holdPath(await mkdtemp(join(workRoot, "asr-")));
 */
export function holdPath(path: string): string {
	currentJob.getStore()?.holds.add(path);
	return path;
}
