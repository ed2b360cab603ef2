/**
 * The soak's dependency faults (`--faults d1,r2,ai,disk,drain`, or `all`), beside round 3's tier
 * kills, broken connections and Worker restart:
 * - d1, r2: the Worker's own injected faults (src/worker/faults: D1's and R2's documented transient
 *   errors on a share of statements and operations), switched on by the INJECT_FAULTS var only this
 *   soak's stack sets, until the fault window ends;
 * - ai: Workers AI played by a local stand-in (ai-stand-in.ts) that fails a share of calls;
 * - drain: the tier drained as a rollout does (SIGTERM, a grace period, SIGKILL; scripts/stack.ts);
 * - disk: the tier's work folder on a small file system of its own (a loop-mounted ext4, as root),
 *   filled to the last byte now and then for a while, as a disk filled by other videos' files is.
 * Each one's rate is in the report (bench-results/soak.json `dependencyFaults`).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, statfsSync } from "node:fs";
import { join } from "node:path";

export const DEPENDENCY_FAULTS = ["d1", "r2", "ai", "disk", "drain"] as const;
export type DependencyFault = (typeof DEPENDENCY_FAULTS)[number];

/** `--faults d1,r2` → those; `all` → every one; empty → none. Unknown names are an error. */
export function parseFaults(flag: string | undefined): Set<DependencyFault> {
	if (!flag || flag === "none") return new Set();
	if (flag === "all") return new Set(DEPENDENCY_FAULTS);
	const names = flag.split(",").map((n) => n.trim());
	const unknown = names.filter((n) => !(DEPENDENCY_FAULTS as readonly string[]).includes(n));
	if (unknown.length > 0)
		throw new Error(`--faults: unknown ${unknown.join(", ")} (known: ${DEPENDENCY_FAULTS.join(", ")}, all)`);
	return new Set(names as DependencyFault[]);
}

/** The Worker's INJECT_FAULTS (src/worker/faults/plan.ts), or null when neither d1 nor r2 is on. */
export function injectFaultsVar(
	faults: Set<DependencyFault>,
	rates: { d1: number; r2: number },
	until: number,
): string | null {
	const parts = (["d1", "r2"] as const).filter((d) => faults.has(d)).map((d) => `${d}=${rates[d]}`);
	return parts.length > 0 ? `${parts.join(",")},until=${until}` : null;
}

/** What the Worker's log says it injected: its `{"event":"fault injected",…}` lines, per dependency. */
export function injectedFaults(
	workerLog: string,
): Record<"d1" | "r2", { injected: number; seen: number; kinds: Record<string, number> }> {
	const out = {
		d1: { injected: 0, seen: 0, kinds: {} as Record<string, number> },
		r2: { injected: 0, seen: 0, kinds: {} as Record<string, number> },
	};
	// Each isolate counts from 0 (the Worker restarts): a count that drops starts a new run; runs add up.
	const last = { d1: 0, r2: 0 };
	for (const line of workerLog.split("\n")) {
		const at = line.indexOf('{"event":"fault injected"');
		if (at === -1) continue;
		let event: { dependency: "d1" | "r2"; fault: string; seen: number };
		try {
			event = JSON.parse(line.slice(at)) as typeof event;
		} catch {
			continue;
		}
		const into = out[event.dependency];
		if (!into) continue;
		into.injected++;
		const kind = event.fault.replace(/^(put|get|uploadPart): /, "");
		into.kinds[kind] = (into.kinds[kind] ?? 0) + 1;
		if (event.seen < last[event.dependency]) into.seen += last[event.dependency];
		last[event.dependency] = event.seen;
	}
	out.d1.seen += last.d1;
	out.r2.seen += last.r2;
	return out;
}

export interface SmallDisk {
	dir: string;
	image: string;
	mounted: boolean;
	/** Why not, when it could not be mounted (not root, no loop device). */
	reason?: string;
	bytes: number;
}

/**
 * A small ext4 file system of `megabytes` (a sparse image, loop-mounted) at `dir`; needs root. Made
 * with no blocks reserved for root (the tier runs as root locally), so filling what is free fills it.
 * Its size must exceed what the tier keeps back for its image and scratch (SOURCE_DISK.reservedBytes,
 * 2.5 GB): the tier sizes the largest source it takes from the disk's total.
 */
export function mountSmallDisk(dir: string, image: string, megabytes: number): SmallDisk {
	mkdirSync(dir, { recursive: true });
	const disk: SmallDisk = { dir, image, mounted: false, bytes: 0 };
	if (process.getuid?.() !== 0) return { ...disk, reason: "not root" };
	const steps: [string, string[]][] = [
		["truncate", ["-s", `${megabytes}M`, image]],
		["mkfs.ext4", ["-q", "-F", "-m", "0", image]],
		["mount", ["-o", "loop", image, dir]],
	];
	for (const [command, args] of steps) {
		const run = spawnSync(command, args, { encoding: "utf8" });
		if (run.status !== 0) {
			rmSync(image, { force: true });
			return { ...disk, reason: `${command}: ${(run.stderr || run.error?.message || "failed").trim()}` };
		}
	}
	return { ...disk, mounted: true, bytes: megabytes * 1024 * 1024 };
}

export function unmountSmallDisk(disk: SmallDisk): void {
	if (!disk.mounted) return;
	// Lazily: the stopped tier may still hold files in it for a moment (a plain umount then fails, busy).
	spawnSync("umount", ["-l", disk.dir]);
	rmSync(disk.image, { force: true });
	disk.mounted = false;
}

const BALLAST = "ballast.fill";

/**
 * Fills what is free on the disk with ballast files, so every write fails with ENOSPC until
 * `freeDisk`: as large a piece as fits, then halves of what is left (a file system needs some room
 * for the pieces' own metadata), down to one block. Answers the bytes taken.
 */
export function fillDisk(disk: SmallDisk): number {
	const freeNow = () => {
		const stats = statfsSync(disk.dir);
		return stats.bavail * stats.bsize;
	};
	const before = freeNow();
	let size = before;
	for (let piece = 0; size >= 4096 && piece < 64; piece++) {
		const filled = spawnSync("fallocate", ["-l", String(size), join(disk.dir, `${BALLAST}.${piece}`)]);
		size = filled.status === 0 ? freeNow() : Math.floor(size / 2);
	}
	return before - freeNow();
}

export function freeDisk(disk: SmallDisk): void {
	for (let piece = 0; piece < 64; piece++) rmSync(join(disk.dir, `${BALLAST}.${piece}`), { force: true });
}

/** The ballast's name in the work folder: not a job's file. */
export const BALLAST_FILE = BALLAST;
