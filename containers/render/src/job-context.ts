/**
 * Which job of the contract the current code runs for, carried through every await of that job
 * (AsyncLocalStorage), so a process started deep inside it can say whose it was when it fails.
 */
import { AsyncLocalStorage } from "node:async_hooks";

const currentJob = new AsyncLocalStorage<string>();

/** Runs `work` as job `name`: every process it starts is reported under that name. */
export function runAsJob<T>(name: string, work: () => T): T {
	return currentJob.run(name, work);
}

/** The job the caller runs for, or `unnamed` (a job function called directly, as some tests do). */
export function runningJobName(): string {
	return currentJob.getStore() ?? "unnamed";
}
