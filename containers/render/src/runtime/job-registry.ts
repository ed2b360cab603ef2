/**
 * The tier's jobs by key (job-key.ts), so a request repeated after a lost connection never starts
 * the same work twice: a job still running is joined (the new connection gets its progress from
 * then on and its result), a finished one is answered from its kept result. A job runs detached
 * from any one connection: when its last caller leaves it keeps going for `abandonAfterMs`, time for
 * the Worker's retry to come back on a fresh connection, and is aborted only if nobody does.
 */
import type { JobInput, JobName, JobOutput, OnProgress } from "@clipforge/contract";
import { runAsJob, type JobContext } from "./job-context.ts";

/** What the tier does for job `N` of the contract's table (jobs/: one handler per row). */
export type JobHandler<N extends JobName> = (
	input: JobInput<N>,
	onProgress: OnProgress,
	signal: AbortSignal,
) => Promise<JobOutput<N>>;

/** A job's body: the handler, given progress to report and a signal that aborts it. */
export type JobWork = (onProgress: OnProgress, signal: AbortSignal) => Promise<unknown>;

export interface JobRegistryOptions {
	/** How long a job no caller listens to keeps running, waiting for one to come back. */
	abandonAfterMs: number;
	/** How long a finished job's result answers the same request again. */
	keepResultsMs: number;
	/** Results kept at most (the oldest go first). */
	maxKeptResults: number;
	/** Called once a job has ended, with whether it was aborted (the server then sweeps). */
	onEnded?: (job: { key: string; name: string; aborted: boolean }) => void;
}

interface RunningJob {
	key: string;
	/** Whose share of the instance it counts against (`<job>:<workspace>`; server.ts), if anyone's. */
	owner: string | undefined;
	context: JobContext;
	controller: AbortController;
	promise: Promise<unknown>;
	listeners: Set<OnProgress>;
	last: { fraction: number; message?: string } | null;
	abandonTimer: ReturnType<typeof setTimeout> | null;
	/** How long it keeps running once its last caller left. */
	abandonAfterMs: number;
}

export interface Attached {
	/** The job's outcome (the same promise for every caller of the key). */
	promise: Promise<unknown>;
	/** True when the job was already running: this caller joined it. */
	joined: boolean;
}

export class JobRegistry {
	private readonly running = new Map<string, RunningJob>();
	private readonly results = new Map<string, { result: unknown; until: number }>();

	private readonly options: JobRegistryOptions;

	constructor(options: JobRegistryOptions) {
		this.options = options;
	}

	/** Jobs running now (however many connections wait on them). */
	get runningCount(): number {
		return this.running.size;
	}

	isRunning(key: string): boolean {
		return this.running.has(key);
	}

	/** Jobs running now that count against `owner`'s share (see attach's `owner`). */
	runningFor(owner: string): number {
		let n = 0;
		for (const job of this.running.values()) if (job.owner === owner) n++;
		return n;
	}

	/** The kept result of a finished job with this key, if it finished recently enough. */
	keptResult(key: string, now = Date.now()): { result: unknown } | undefined {
		const kept = this.results.get(key);
		if (!kept) return undefined;
		if (kept.until < now) {
			this.results.delete(key);
			return undefined;
		}
		return { result: kept.result };
	}

	/**
	 * Joins the running job `key`, or starts `work` as it. The caller hears the job's progress (the
	 * last value at once, when joining) until `connection` aborts; then it leaves, and a job left
	 * with no caller is aborted after abandonAfterMs unless someone joins it meanwhile.
	 * @param options.keep Whether the result is kept for a repeated request (not for jobs that must run each time).
	 * @param options.owner Whose share of the instance a job started here counts against (runningFor).
	 * @param options.abandonAfterMs How long this job outlives its last caller (default: the registry's).
	 */
	attach(
		key: string,
		name: string,
		work: JobWork,
		onProgress: OnProgress,
		connection: AbortSignal,
		options: { keep?: boolean; owner?: string; abandonAfterMs?: number } = {},
	): Attached {
		let job = this.running.get(key);
		const joined = job !== undefined;
		if (!job) job = this.start(key, name, work, options);
		const running = job;
		running.listeners.add(onProgress);
		if (running.abandonTimer) clearTimeout(running.abandonTimer);
		running.abandonTimer = null;
		if (joined && running.last) onProgress(running.last.fraction, running.last.message);
		const leave = () => {
			running.listeners.delete(onProgress);
			if (running.listeners.size === 0 && this.running.get(key) === running) this.abandonLater(running);
		};
		if (connection.aborted) leave();
		else connection.addEventListener("abort", leave, { once: true });
		void running.promise.then(
			() => connection.removeEventListener("abort", leave),
			() => connection.removeEventListener("abort", leave),
		);
		return { promise: running.promise, joined };
	}

	/** Every work path a running job holds (the sweep leaves them alone). */
	heldPaths(): Set<string> {
		const held = new Set<string>();
		for (const job of this.running.values()) for (const path of job.context.holds) held.add(path);
		return held;
	}

	private start(
		key: string,
		name: string,
		work: JobWork,
		options: { keep?: boolean; owner?: string; abandonAfterMs?: number },
	): RunningJob {
		const keep = options.keep ?? true;
		const job: RunningJob = {
			key,
			owner: options.owner,
			abandonAfterMs: options.abandonAfterMs ?? this.options.abandonAfterMs,
			context: { name, holds: new Set() },
			controller: new AbortController(),
			promise: Promise.resolve(),
			listeners: new Set(),
			last: null,
			abandonTimer: null,
		};
		const report: OnProgress = (fraction, message) => {
			job.last = { fraction, message };
			for (const listener of job.listeners) listener(fraction, message);
		};
		job.promise = runAsJob(job.context, () => work(report, job.controller.signal));
		this.running.set(key, job);
		const ended = () => {
			if (job.abandonTimer) clearTimeout(job.abandonTimer);
			this.running.delete(key);
			this.options.onEnded?.({ key, name, aborted: job.controller.signal.aborted });
		};
		job.promise.then((result) => {
			if (keep) this.keepResult(key, result);
			ended();
		}, ended);
		return job;
	}

	private abandonLater(job: RunningJob): void {
		if (job.abandonTimer) clearTimeout(job.abandonTimer);
		job.abandonTimer = setTimeout(() => {
			if (job.listeners.size === 0) job.controller.abort(new Error("Every caller of the job left."));
		}, job.abandonAfterMs);
		job.abandonTimer.unref?.();
	}

	private keepResult(key: string, result: unknown): void {
		const now = Date.now();
		this.results.delete(key);
		this.results.set(key, { result, until: now + this.options.keepResultsMs });
		for (const [oldKey, kept] of this.results) {
			if (this.results.size <= this.options.maxKeptResults && kept.until >= now) break;
			this.results.delete(oldKey);
		}
	}
}
