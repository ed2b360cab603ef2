import { sweepWorkRoot, type SweepReport } from "./sweep.ts";
import { log } from "./tier-log.ts";
import { workRoot } from "./tool-paths.ts";

/**
 * Sweeps of the work root, one at a time: a request during a sweep runs one more pass after it,
 * and every caller gets the paths removed by all passes.
 */
export function serialSweeper(held: () => Set<string>, idleMs: number): () => Promise<SweepReport> {
	let sweeping: Promise<SweepReport> | null = null;
	let again = false;
	return async () => {
		if (sweeping) {
			again = true;
			return sweeping;
		}
		sweeping = (async () => {
			const removed: string[] = [];
			do {
				again = false;
				removed.push(...(await sweepWorkRoot({ root: workRoot, held: held(), idleMs })).removed);
			} while (again);
			if (removed.length > 0) log("swept", { removed: removed.length, paths: removed.slice(0, 20) });
			return { removed };
		})().finally(() => {
			sweeping = null;
		});
		return sweeping;
	};
}
