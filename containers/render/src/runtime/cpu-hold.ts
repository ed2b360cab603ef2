/**
 * One job's hold on a CPU slot (encode-slots.ts), and the processes it runs under it. The slots may
 * pause a hold to give its core to another workspace's job (a burst yields to a lone video): its
 * processes are stopped (SIGSTOP) and continued (SIGCONT) where they were, so no work is lost. The
 * hold is found through the job's async context, so `runProcess` deep inside a render can attach the
 * process it starts without every function in between passing the hold along.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { ChildProcess } from "node:child_process";

const currentHold = new AsyncLocalStorage<CpuHold>();

/** The hold of the job running this code, if it holds a CPU slot. */
export function currentCpuHold(): CpuHold | undefined {
	return currentHold.getStore();
}

export class CpuHold {
	readonly workspace: string;
	readonly video: string;
	private readonly processes = new Set<ChildProcess>();
	private readonly now: () => number;
	private pausedAt: number | null = null;
	/** Milliseconds paused in earlier pauses. */
	private pausedBefore = 0;

	constructor(workspace: string, video: string, now: () => number) {
		this.workspace = workspace;
		this.video = video;
		this.now = now;
	}

	get paused(): boolean {
		return this.pausedAt !== null;
	}

	/** Milliseconds paused in all, the current pause included. */
	pausedMs(): number {
		return this.pausedBefore + (this.pausedAt === null ? 0 : this.now() - this.pausedAt);
	}

	/** Runs `work` as this hold's: the processes it starts are paused and continued with it. */
	within<T>(work: () => Promise<T>): Promise<T> {
		return currentHold.run(this, work);
	}

	/** Attaches a started process (stopped at once if the hold is paused); returns its detach. */
	track(child: ChildProcess): () => void {
		this.processes.add(child);
		if (this.paused) child.kill("SIGSTOP");
		return () => this.processes.delete(child);
	}

	pause(): void {
		if (this.paused) return;
		this.pausedAt = this.now();
		for (const child of this.processes) child.kill("SIGSTOP");
	}

	resume(): void {
		if (this.pausedAt === null) return;
		this.pausedBefore += this.now() - this.pausedAt;
		this.pausedAt = null;
		for (const child of this.processes) child.kill("SIGCONT");
	}
}

/**
 * Calls `onDue` once `ms` of the hold's running time have passed since now: time it spent paused
 * does not count, so a process's timeout measures its own work, not another workspace's turn.
 * Without a hold, a plain timer. Returns the cancel.
 */
export function afterRunningMs(ms: number, hold: CpuHold | undefined, onDue: () => void): () => void {
	const started = Date.now();
	const pausedAtStart = hold?.pausedMs() ?? 0;
	let timer: NodeJS.Timeout;
	const check = () => {
		const ran = Date.now() - started - ((hold?.pausedMs() ?? 0) - pausedAtStart);
		if (ran >= ms) onDue();
		// While paused, look again in a second rather than spin on the few milliseconds left.
		else timer = setTimeout(check, hold?.paused ? Math.max(1_000, ms - ran) : ms - ran);
	};
	timer = setTimeout(check, ms);
	return () => clearTimeout(timer);
}
