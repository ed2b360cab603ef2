/**
 * CPU-bound work at once on this instance: one per core. A render job holds a slot while it scans
 * faces and encodes, and gives it back before it uploads, so the next clip starts encoding while
 * the previous one is still uploading (uploads are I/O, encodes are CPU); the local transcriber
 * holds one while it recognises a chunk.
 *
 * Shared between workspaces by what they used lately: each workspace's slot-seconds (halved every
 * minute), plus two minutes for each video it has in progress beyond its first, so a workspace
 * bursting several videos counts as having had more than one running a single video.
 *
 * - A freed slot goes to the job whose workspace runs the fewest slots; among those, to the one
 *   that used the least; then to the job whose video runs the fewest; a paused job before a new one
 *   among equals; first come among equals.
 * - A job whose workspace runs none does not wait behind a workspace that used at least half a
 *   minute more: that workspace's job is paused (its processes stopped, cpu-hold.ts) and continued
 *   when a slot frees for it. Without this a lone video waits out each job of a burst that took
 *   the cores first (a chunk's transcription, a clip's encode), and on two cores its first clip
 *   came a whole video's time later than alone.
 * - A job paused for a minute in all is not paused again and goes first for the next free slot, so
 *   a pause stays far inside every process's timeout (which does not count paused time anyway).
 */
import { availableParallelism } from "node:os";
import { CpuHold } from "./cpu-hold.ts";

/** Who a job is for. Jobs that name no workspace or video share one anonymous owner. */
export interface SlotOwner {
	workspace?: string;
	video?: string;
}

/** Gives the slot back (once; later calls do nothing). `within` runs the job's CPU work as the hold's. */
export interface SlotRelease {
	(): void;
	within<T>(work: () => Promise<T>): Promise<T>;
}

/** How fast a workspace's past use is forgotten: its slot-seconds halve every minute. */
const USAGE_HALF_LIFE_MS = 60_000;
/** What each video in progress beyond a workspace's first adds to its use. */
const BURST_LEAD_MS = 120_000;
/** How much more another workspace must have used before a job pauses one of its jobs. */
const PREEMPT_MARGIN_MS = 30_000;
/** A job paused this long in all is not paused again, and goes first for the next free slot. */
export const MAX_PAUSE_MS = 60_000;
/**
 * A video counts as in progress this long after its last job here, to bridge the gaps between its
 * stages (a transcription's end and the first render's start are a second apart), or until the
 * Worker's cleanup says it is done (`forget`).
 */
const ACTIVE_VIDEO_MS = 10_000;

interface Waiter {
	workspace: string;
	video: string;
	seq: number;
	ready: (hold: CpuHold) => void;
}

/** A job that may take a free slot: one waiting to start, or a paused one. */
type Candidate = { hold: CpuHold; seq: number } | Waiter;

export class Slots {
	readonly size: number;
	private readonly running = new Map<CpuHold, { since: number }>();
	private readonly paused: { hold: CpuHold; seq: number }[] = [];
	private readonly waiting: Waiter[] = [];
	/** Each workspace's slot-milliseconds, decayed to `at` (running time is added when it stops). */
	private readonly usage = new Map<string, { ms: number; at: number }>();
	/** When each video last started or ended a job, and whose it is. */
	private readonly lastSeen = new Map<string, { workspace: string; at: number }>();
	private seq = 0;
	/** Told of each pause and continuation (the tier logs them). */
	observe?: (event: "paused" | "continued", hold: CpuHold) => void;

	private readonly now: () => number;

	/** `now` is the clock the workspaces' past use is measured by (a test's own). */
	constructor(size: number, now: () => number = Date.now) {
		this.now = now;
		this.size = Math.max(1, size);
	}

	/** Jobs waiting for a slot. */
	get queued(): number {
		return this.waiting.length;
	}

	/** Jobs paused to let another workspace's run. */
	get pausedJobs(): number {
		return this.paused.length;
	}

	/**
	 * Runs `work` under a slot for `owner` (the processes it starts are paused and continued with the
	 * slot's hold) and gives the slot back when it ends, however it ends.
	 */
	async run<T>(signal: AbortSignal | undefined, owner: SlotOwner, work: () => Promise<T>): Promise<T> {
		const release = await this.acquire(signal, owner);
		try {
			return await release.within(work);
		} finally {
			release();
		}
	}

	/** Resolves with a release function once a slot is free for `owner` (or rejects if `signal` aborts first). */
	async acquire(signal?: AbortSignal, owner: SlotOwner = {}): Promise<SlotRelease> {
		const workspace = owner.workspace ?? "";
		const video = owner.video ?? "";
		this.seen(workspace, video);
		if (this.running.size < this.size) return this.releaseOf(this.start(workspace, video));
		const victim = this.victimFor(workspace);
		if (victim) {
			this.pause(victim);
			return this.releaseOf(this.start(workspace, video));
		}
		const hold = await new Promise<CpuHold>((resolve, reject) => {
			const waiter: Waiter = {
				workspace,
				video,
				seq: this.seq++,
				ready: (granted) => {
					signal?.removeEventListener("abort", onAbort);
					resolve(granted);
				},
			};
			const onAbort = () => {
				this.waiting.splice(this.waiting.indexOf(waiter), 1);
				reject(signal!.reason ?? new Error("aborted"));
			};
			this.waiting.push(waiter);
			signal?.addEventListener("abort", onAbort, { once: true });
		});
		return this.releaseOf(hold);
	}

	private start(workspace: string, video: string): CpuHold {
		const hold = new CpuHold(workspace, video, this.now);
		this.running.set(hold, { since: this.now() });
		return hold;
	}

	private releaseOf(hold: CpuHold): SlotRelease {
		let released = false;
		const release = () => {
			if (released) return;
			released = true;
			this.end(hold);
		};
		return Object.assign(release, { within: <T>(work: () => Promise<T>) => hold.within(work) });
	}

	private end(hold: CpuHold): void {
		if (this.running.has(hold)) this.stopRunning(hold);
		else {
			// Released while paused (cancelled, or failed between processes): its processes must not stay stopped.
			const at = this.paused.findIndex((p) => p.hold === hold);
			if (at >= 0) this.paused.splice(at, 1);
			hold.resume();
		}
		this.seen(hold.workspace, hold.video);
		this.fill();
	}

	/** Gives free slots to the best candidates: paused jobs continue, waiting ones start. */
	private fill(): void {
		while (this.running.size < this.size) {
			const next = this.bestCandidate();
			if (!next) return;
			if ("ready" in next) {
				this.waiting.splice(this.waiting.indexOf(next), 1);
				next.ready(this.start(next.workspace, next.video));
			} else {
				this.paused.splice(this.paused.indexOf(next), 1);
				next.hold.resume();
				this.running.set(next.hold, { since: this.now() });
				this.observe?.("continued", next.hold);
			}
		}
	}

	private bestCandidate(): Candidate | undefined {
		const now = this.now();
		const rank = (c: Candidate): number[] => {
			const paused = "ready" in c ? null : c.hold;
			const { workspace, video } = paused ?? (c as Waiter);
			return [
				paused && paused.pausedMs() >= MAX_PAUSE_MS ? 0 : 1,
				this.runningIn((h) => h.workspace === workspace),
				this.effectiveUsage(workspace, now),
				this.runningIn((h) => h.video === video),
				paused ? 0 : 1,
				c.seq,
			];
		};
		let best: Candidate | undefined;
		let bestRank: number[] = [];
		for (const candidate of [...this.paused, ...this.waiting]) {
			const candidateRank = rank(candidate);
			if (!best || before(candidateRank, bestRank)) [best, bestRank] = [candidate, candidateRank];
		}
		return best;
	}

	/** The running job a new job of `workspace` may pause, if any: another workspace's that used the most. */
	private victimFor(workspace: string): CpuHold | undefined {
		if (this.runningIn((h) => h.workspace === workspace) > 0) return undefined;
		const now = this.now();
		const mine = this.effectiveUsage(workspace, now);
		let victim: CpuHold | undefined;
		let most = mine + PREEMPT_MARGIN_MS;
		for (const hold of this.running.keys()) {
			if (hold.workspace === workspace || hold.pausedMs() >= MAX_PAUSE_MS) continue;
			const theirs = this.effectiveUsage(hold.workspace, now);
			if (theirs > most) [victim, most] = [hold, theirs];
		}
		return victim;
	}

	private pause(hold: CpuHold): void {
		this.stopRunning(hold);
		hold.pause();
		this.paused.push({ hold, seq: this.seq++ });
		this.observe?.("paused", hold);
	}

	private stopRunning(hold: CpuHold): void {
		const now = this.now();
		this.addUsage(hold.workspace, now - this.running.get(hold)!.since, now);
		this.running.delete(hold);
	}

	private runningIn(matches: (hold: CpuHold) => boolean): number {
		let count = 0;
		for (const hold of this.running.keys()) if (matches(hold)) count++;
		return count;
	}

	/** Slot-milliseconds used lately (running time included), plus the lead of a burst's extra videos. */
	private effectiveUsage(workspace: string, now: number): number {
		let ms = this.usageAt(workspace, now);
		for (const [hold, { since }] of this.running) if (hold.workspace === workspace) ms += now - since;
		return ms + BURST_LEAD_MS * Math.max(0, this.videosInProgress(workspace, now) - 1);
	}

	/** The workspace's videos holding, waiting for or paused in a slot, or seen in the last moments. */
	private videosInProgress(workspace: string, now: number): number {
		const videos = new Set<string>();
		for (const [video, seen] of this.lastSeen)
			if (seen.workspace === workspace && now - seen.at < ACTIVE_VIDEO_MS) videos.add(video);
		for (const hold of [...this.running.keys(), ...this.paused.map((p) => p.hold)])
			if (hold.workspace === workspace) videos.add(hold.video);
		for (const waiter of this.waiting) if (waiter.workspace === workspace) videos.add(waiter.video);
		return videos.size;
	}

	/** The video is done (its cleanup job): it stops counting among its workspace's videos in progress. */
	forget(video: string): void {
		this.lastSeen.delete(video);
	}

	private seen(workspace: string, video: string): void {
		const now = this.now();
		this.lastSeen.delete(video);
		this.lastSeen.set(video, { workspace, at: now });
		// Oldest first (re-inserted on each sighting): forget those past the window, so the map stays small.
		for (const [name, seen] of this.lastSeen) {
			if (now - seen.at < ACTIVE_VIDEO_MS) break;
			this.lastSeen.delete(name);
		}
	}

	private usageAt(workspace: string, now: number): number {
		const used = this.usage.get(workspace);
		return used ? used.ms * 0.5 ** ((now - used.at) / USAGE_HALF_LIFE_MS) : 0;
	}

	private addUsage(workspace: string, ms: number, now: number): void {
		this.usage.set(workspace, { ms: this.usageAt(workspace, now) + ms, at: now });
		// Forgotten workspaces (under a millisecond left) leave the map, so it stays as small as the active set.
		for (const name of [...this.usage.keys()]) if (this.usageAt(name, now) < 1) this.usage.delete(name);
	}
}

/** Lexicographic order of two ranks: the first difference decides. */
function before(a: number[], b: number[]): boolean {
	for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
	return false;
}

export const cpuSlots = new Slots(Number(process.env.ENCODE_SLOTS) || availableParallelism());
