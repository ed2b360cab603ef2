/**
 * CPU-bound work at once on this instance: one per core. A render job holds a slot while it scans
 * faces and encodes, and gives it back before it uploads, so the next clip starts encoding while
 * the previous one is still uploading (uploads are I/O, encodes are CPU); the local transcriber
 * holds one while it recognises a chunk.
 *
 * Shared fairly between workspaces, then between their videos: a freed slot goes to the waiting
 * job whose workspace holds the fewest slots; among those, to the workspace that used the slots
 * least lately (slot-seconds, halved every minute); then to the job whose video holds the fewest;
 * first come among equals. Not simply the oldest waiter: one workspace's burst of videos queues its
 * jobs first and, with more workspaces than cores, two workspaces often hold none at once; the one
 * that has had less goes first. So a burst does not make another workspace's first clip wait
 * behind it: each workspace running gets an equal share of the cores over time, and each of its
 * videos an equal share of that.
 */
import { availableParallelism } from "node:os";

/** Who a job is for. Jobs that name no workspace or video share one anonymous owner. */
export interface SlotOwner {
	workspace?: string;
	video?: string;
}

/** How fast a workspace's past use is forgotten: its slot-seconds halve every minute. */
const USAGE_HALF_LIFE_MS = 60_000;

interface Waiter {
	workspace: string;
	video: string;
	ready: () => void;
}

export class Slots {
	readonly size: number;
	private free: number;
	private readonly waiting: Waiter[] = [];
	/** Slots held per workspace and per video ("" when the caller names none). */
	private readonly byWorkspace = new Map<string, number>();
	private readonly byVideo = new Map<string, number>();
	/** Each workspace's slot-milliseconds, decayed to `at`. */
	private readonly usage = new Map<string, { ms: number; at: number }>();

	private readonly now: () => number;

	/** `now` is the clock the workspaces' past use is measured by (a test's own). */
	constructor(size: number, now: () => number = Date.now) {
		this.now = now;
		this.size = Math.max(1, size);
		this.free = this.size;
	}

	/** Jobs waiting for a slot. */
	get queued(): number {
		return this.waiting.length;
	}

	/** Resolves with a release function once a slot is free for `owner` (or rejects if `signal` aborts first). */
	async acquire(signal?: AbortSignal, owner: SlotOwner = {}): Promise<() => void> {
		const workspace = owner.workspace ?? "";
		const video = owner.video ?? "";
		if (this.free > 0) {
			this.free--;
			return this.grant(workspace, video);
		}
		await new Promise<void>((resolve, reject) => {
			const waiter: Waiter = {
				workspace,
				video,
				ready: () => {
					signal?.removeEventListener("abort", onAbort);
					resolve();
				},
			};
			const onAbort = () => {
				this.waiting.splice(this.waiting.indexOf(waiter), 1);
				reject(signal!.reason ?? new Error("aborted"));
			};
			this.waiting.push(waiter);
			signal?.addEventListener("abort", onAbort, { once: true });
		});
		return this.grant(workspace, video);
	}

	private grant(workspace: string, video: string): () => void {
		count(this.byWorkspace, workspace, 1);
		count(this.byVideo, video, 1);
		const grantedAt = this.now();
		let released = false;
		return () => {
			if (released) return;
			released = true;
			this.addUsage(workspace, this.now() - grantedAt);
			count(this.byWorkspace, workspace, -1);
			count(this.byVideo, video, -1);
			const next = this.nextWaiter();
			if (next) next.ready();
			else this.free++;
		};
	}

	/**
	 * The waiter whose workspace holds the fewest slots now, then used them least lately, then whose
	 * video holds the fewest; the earliest among equals.
	 */
	private nextWaiter(): Waiter | undefined {
		const now = this.now();
		const rank = (w: Waiter) => [
			this.byWorkspace.get(w.workspace) ?? 0,
			this.usageAt(w.workspace, now),
			this.byVideo.get(w.video) ?? 0,
		];
		let best = -1;
		let bestRank: number[] = [];
		for (let i = 0; i < this.waiting.length; i++) {
			const candidate = rank(this.waiting[i]!);
			if (best < 0 || before(candidate, bestRank)) [best, bestRank] = [i, candidate];
		}
		return best < 0 ? undefined : this.waiting.splice(best, 1)[0];
	}

	private usageAt(workspace: string, now: number): number {
		const used = this.usage.get(workspace);
		return used ? used.ms * 0.5 ** ((now - used.at) / USAGE_HALF_LIFE_MS) : 0;
	}

	private addUsage(workspace: string, ms: number): void {
		const now = this.now();
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

function count(held: Map<string, number>, owner: string, by: number): void {
	const now = (held.get(owner) ?? 0) + by;
	if (now > 0) held.set(owner, now);
	else held.delete(owner);
}

export const cpuSlots = new Slots(Number(process.env.ENCODE_SLOTS) || availableParallelism());
