/**
 * CPU-bound work at once on this instance: one per core. A render job holds a slot while it scans
 * faces and encodes, and gives it back before it uploads, so the next clip starts encoding while
 * the previous one is still uploading (uploads are I/O, encodes are CPU); the local transcriber
 * holds one while it recognises a chunk.
 *
 * Shared fairly between videos: a freed slot goes to the waiting job whose video holds the fewest
 * slots (first come among equals), not simply the oldest waiter. So one workspace's burst of
 * videos, whose jobs queue up first, does not make another video's first clip wait behind all of
 * them: each video running gets an equal share of the cores.
 */
import { availableParallelism } from "node:os";

interface Waiter {
	owner: string;
	ready: () => void;
}

export class Slots {
	readonly size: number;
	private free: number;
	private readonly waiting: Waiter[] = [];
	/** Slots held per owner (a video id; "" when the caller names none). */
	private readonly held = new Map<string, number>();

	constructor(size: number) {
		this.size = Math.max(1, size);
		this.free = this.size;
	}

	/** Jobs waiting for a slot. */
	get queued(): number {
		return this.waiting.length;
	}

	/** Resolves with a release function once a slot is free for `owner` (or rejects if `signal` aborts first). */
	async acquire(signal?: AbortSignal, owner = ""): Promise<() => void> {
		if (this.free > 0) {
			this.free--;
			return this.grant(owner);
		}
		await new Promise<void>((resolve, reject) => {
			const waiter: Waiter = {
				owner,
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
		return this.grant(owner);
	}

	private grant(owner: string): () => void {
		this.held.set(owner, (this.held.get(owner) ?? 0) + 1);
		let released = false;
		return () => {
			if (released) return;
			released = true;
			const left = (this.held.get(owner) ?? 1) - 1;
			if (left > 0) this.held.set(owner, left);
			else this.held.delete(owner);
			const next = this.nextWaiter();
			if (next) next.ready();
			else this.free++;
		};
	}

	/** The waiter whose owner holds the fewest slots now; the earliest among equals. */
	private nextWaiter(): Waiter | undefined {
		let best = -1;
		for (let i = 0; i < this.waiting.length; i++) {
			const holds = this.held.get(this.waiting[i]!.owner) ?? 0;
			if (best < 0 || holds < (this.held.get(this.waiting[best]!.owner) ?? 0)) best = i;
		}
		return best < 0 ? undefined : this.waiting.splice(best, 1)[0];
	}
}

export const cpuSlots = new Slots(Number(process.env.ENCODE_SLOTS) || availableParallelism());
