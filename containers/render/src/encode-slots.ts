/**
 * CPU-bound work at once on this instance: one per core. A render job holds a slot while it scans
 * faces and encodes, and gives it back before it uploads, so the next clip starts encoding while
 * the previous one is still uploading (uploads are I/O, encodes are CPU); the local transcriber
 * holds one while it recognises a chunk.
 */
import { availableParallelism } from "node:os";

export class Slots {
	readonly size: number;
	private free: number;
	private readonly waiting: (() => void)[] = [];

	constructor(size: number) {
		this.size = Math.max(1, size);
		this.free = this.size;
	}

	/** Jobs waiting for a slot. */
	get queued(): number {
		return this.waiting.length;
	}

	/** Resolves with a release function once a slot is free (or rejects if `signal` aborts first). */
	async acquire(signal?: AbortSignal): Promise<() => void> {
		if (this.free > 0) {
			this.free--;
			return this.releaser();
		}
		await new Promise<void>((resolve, reject) => {
			const ready = () => {
				signal?.removeEventListener("abort", onAbort);
				resolve();
			};
			const onAbort = () => {
				this.waiting.splice(this.waiting.indexOf(ready), 1);
				reject(signal!.reason ?? new Error("aborted"));
			};
			this.waiting.push(ready);
			signal?.addEventListener("abort", onAbort, { once: true });
		});
		return this.releaser();
	}

	private releaser(): () => void {
		let released = false;
		return () => {
			if (released) return;
			released = true;
			const next = this.waiting.shift();
			if (next) next();
			else this.free++;
		};
	}
}

export const cpuSlots = new Slots(Number(process.env.ENCODE_SLOTS) || availableParallelism());
