/**
 * CPU-bound work at once on this instance: one per core. A render job holds a slot while it scans
 * faces and encodes, and gives it back before it uploads, so the next clip starts encoding while
 * the previous one is still uploading (uploads are I/O, encodes are CPU); the local transcriber
 * holds one while it recognises a chunk.
 *
 * Shared fairly between workspaces, then between their videos: a freed slot goes to the waiting
 * job whose workspace holds the fewest slots, among those to the one whose video holds the fewest,
 * and first come among equals; not simply the oldest waiter. So one workspace's burst of videos,
 * whose jobs queue up first, does not make another workspace's first clip wait behind all of them:
 * each workspace running gets an equal share of the cores, and each of its videos an equal share
 * of that.
 */
import { availableParallelism } from "node:os";

/** Who a job is for. Jobs that name no workspace or video share one anonymous owner. */
export interface SlotOwner {
	workspace?: string;
	video?: string;
}

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

	constructor(size: number) {
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
		let released = false;
		return () => {
			if (released) return;
			released = true;
			count(this.byWorkspace, workspace, -1);
			count(this.byVideo, video, -1);
			const next = this.nextWaiter();
			if (next) next.ready();
			else this.free++;
		};
	}

	/** The waiter whose workspace, then video, holds the fewest slots now; the earliest among equals. */
	private nextWaiter(): Waiter | undefined {
		let best = -1;
		const rank = (w: Waiter) => [this.byWorkspace.get(w.workspace) ?? 0, this.byVideo.get(w.video) ?? 0] as const;
		for (let i = 0; i < this.waiting.length; i++) {
			if (best < 0) {
				best = i;
				continue;
			}
			const [workspace, video] = rank(this.waiting[i]!);
			const [bestWorkspace, bestVideo] = rank(this.waiting[best]!);
			if (workspace < bestWorkspace || (workspace === bestWorkspace && video < bestVideo)) best = i;
		}
		return best < 0 ? undefined : this.waiting.splice(best, 1)[0];
	}
}

function count(held: Map<string, number>, owner: string, by: number): void {
	const now = (held.get(owner) ?? 0) + by;
	if (now > 0) held.set(owner, now);
	else held.delete(owner);
}

export const cpuSlots = new Slots(Number(process.env.ENCODE_SLOTS) || availableParallelism());
