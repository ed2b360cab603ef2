/**
 * CPU time from the kernel's own account (/proc), which the load of a shared machine barely moves,
 * unlike wall time: a process's own CPU, its exited children's, and a whole process tree's.
 */
import { readFileSync, readdirSync } from "node:fs";

/** Kernel clock ticks per second (CLK_TCK, 100 on Linux). */
const TICKS_PER_SECOND = 100;

interface Stat {
	ppid: number;
	/** The process's own user + system CPU, seconds. */
	self: number;
	/** Its exited (waited-for) children's, seconds. */
	children: number;
}

function statOf(pid: number | "self"): Stat | null {
	try {
		const text = readFileSync(`/proc/${pid}/stat`, "utf8");
		const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
		const n = (i: number) => Number(fields[i]) / TICKS_PER_SECOND;
		return { ppid: Number(fields[1]), self: n(11) + n(12), children: n(13) + n(14) };
	} catch {
		return null;
	}
}

/** CPU seconds of this process's exited children so far (grow the count around the work you measure). */
export const childrenCpuSeconds = (): number => statOf("self")?.children ?? 0;

/**
 * CPU seconds of a process tree: every live process under `root` (itself included), each with its
 * exited children. Read it before and after: the difference is what the tree spent meanwhile, as
 * long as none of its live processes exited in between.
 */
export function treeCpuSeconds(root: number): number {
	const parentOf = new Map<number, number>();
	const stats = new Map<number, Stat>();
	for (const entry of readdirSync("/proc")) {
		const pid = Number(entry);
		if (!Number.isInteger(pid)) continue;
		const stat = statOf(pid);
		if (!stat) continue;
		parentOf.set(pid, stat.ppid);
		stats.set(pid, stat);
	}
	const inTree = (pid: number): boolean => {
		for (let at: number | undefined = pid, hops = 0; at && hops < 64; at = parentOf.get(at), hops++)
			if (at === root) return true;
		return false;
	};
	let total = 0;
	for (const [pid, stat] of stats) if (inTree(pid)) total += stat.self + stat.children;
	return total;
}
