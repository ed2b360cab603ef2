/**
 * Virtual time for simulating async code: `sleep(seconds)` resolves when the clock reaches that
 * moment, and `run` advances the clock from one timer to the next only once every promise chain
 * started so far has settled (a macrotask turn), so code written with plain promises (the
 * workflow's plan, the tier's encode slots) runs unchanged, in order, in no real time.
 */
export class VirtualClock {
	now = 0;
	private timers: { at: number; seq: number; fire: () => void; cancelled: boolean }[] = [];
	private seq = 0;

	sleep(seconds: number): Promise<void> {
		return new Promise((resolve) => void this.timer(seconds, resolve));
	}

	/** Calls `fire` `seconds` from now unless cancelled first. */
	timer(seconds: number, fire: () => void): { cancel(): void } {
		const entry = { at: this.now + Math.max(0, seconds), seq: this.seq++, fire, cancelled: false };
		this.timers.push(entry);
		return { cancel: () => void (entry.cancelled = true) };
	}

	async run<T>(main: () => Promise<T>): Promise<T> {
		let settled = false;
		const result = main().finally(() => {
			settled = true;
		});
		result.catch(() => undefined);
		for (;;) {
			await new Promise((resolve) => setImmediate(resolve));
			if (settled) return result;
			this.timers = this.timers.filter((t) => !t.cancelled).sort((a, b) => a.at - b.at || a.seq - b.seq);
			const next = this.timers.shift();
			if (!next) throw new Error("The simulation is stuck: nothing is running and nothing is scheduled.");
			this.now = next.at;
			next.fire();
		}
	}
}

/**
 * A machine's cores shared by the CPU work running on it (processor sharing): n jobs split the
 * cores evenly, each using at most its own number of threads, at `speedup(cores)` of one core.
 * (Cores a single-threaded job leaves unused are not lent to the others: slightly pessimistic.)
 */
export class SharedCpu {
	private jobs: { left: number; threads: number; done: () => void }[] = [];
	private lastAt = 0;
	private pending: { cancel(): void } | null = null;

	constructor(
		private readonly clock: VirtualClock,
		readonly cores: number,
		private readonly speedup: (cores: number) => number,
	) {}

	/** Runs `cpuSeconds` of work (as measured on one core) on up to `threads` cores. */
	work(cpuSeconds: number, threads: number): Promise<void> {
		if (cpuSeconds <= 0) return Promise.resolve();
		this.advance();
		return new Promise((done) => {
			this.jobs.push({ left: cpuSeconds, threads, done });
			this.reschedule();
		});
	}

	private rateOf(job: { threads: number }): number {
		return this.speedup(Math.min(job.threads, this.cores / this.jobs.length));
	}

	private advance(): void {
		const elapsed = this.clock.now - this.lastAt;
		this.lastAt = this.clock.now;
		if (elapsed <= 0) return;
		for (const job of this.jobs) job.left -= elapsed * this.rateOf(job);
	}

	private reschedule(): void {
		this.pending?.cancel();
		if (this.jobs.length === 0) return;
		const soonest = Math.min(...this.jobs.map((j) => j.left / this.rateOf(j)));
		this.pending = this.clock.timer(Math.max(0, soonest), () => {
			this.advance();
			const finished = this.jobs.filter((j) => j.left <= 1e-6);
			this.jobs = this.jobs.filter((j) => j.left > 1e-6);
			for (const job of finished) job.done();
			this.reschedule();
		});
	}
}
