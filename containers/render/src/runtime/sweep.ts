/**
 * The work root's sweep: removes what jobs that are no longer running left behind. A job removes its
 * own scratch when it ends; a job whose process was killed (SIGKILL, an instance restart) or whose
 * cleanup never came (the Worker's `cleanup` job lost with its connection) cannot, so the server
 * sweeps at start, after a job is aborted, and on a timer (server.ts).
 *
 * What goes, when no running job holds it (job-context.ts holdPath):
 * - scratch folders `asr-…` and `preview-…`, and `_shared`'s temporary files (`make-…`, `import-…`, `*.part`);
 * - in a video's folder, everything but a complete downloaded source (`source.mp4`): partial
 *   downloads, audio chunks, signals, a clip's files;
 * - a video's whole folder once nothing in it changed for `idleMs` (its source was uploaded to R2
 *   long ago: the upload step follows the download within seconds, and re-downloads if it is gone).
 * Built-in backgrounds in `_shared` stay: they are the instance's cache, not a job's files.
 */
import { readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { PATH_SAFE_ID } from "@clipforge/contract";

/** A video's checked, complete download (download.ts renames it so only when it is whole). */
const KEPT_SOURCE = "source.mp4";
const SCRATCH_DIR = /^(asr|preview)-/;
const SHARED_TEMP = /^(make-|import-)|\.part$/;

export interface SweepOptions {
	/** The work root (tool-paths.ts workRoot). */
	root: string;
	/** Absolute paths running jobs hold. */
	held: ReadonlySet<string>;
	/** A video folder unchanged this long goes whole, its source included. */
	idleMs: number;
	now?: number;
}

export interface SweepReport {
	/** Paths removed, relative to the root. */
	removed: string[];
}

/**
 * Removes from `root` what no running job holds (see the module comment). Never throws: a path that
 * cannot be read or removed now is tried again at the next sweep.
 * @example await sweepWorkRoot({ root: workRoot, held: registry.heldPaths(), idleMs: 15 * 60_000 })
 */
export async function sweepWorkRoot(options: SweepOptions): Promise<SweepReport> {
	const now = options.now ?? Date.now();
	const removed: string[] = [];
	const remove = async (relative: string) => {
		const path = join(options.root, relative);
		// Checked again at the last moment: a job may have taken the path while the sweep looked around.
		if (options.held.has(path)) return;
		try {
			await rm(path, { recursive: true, force: true });
			removed.push(relative);
		} catch {
			// Tried again at the next sweep.
		}
	};
	for (const entry of await entriesOf(options.root)) {
		const path = join(options.root, entry.name);
		if (options.held.has(path)) continue;
		if (entry.name === "_shared") {
			for (const file of await entriesOf(path)) {
				if (SHARED_TEMP.test(file.name) && !options.held.has(join(path, file.name)))
					await remove(join(entry.name, file.name));
			}
		} else if (entry.isDirectory() && SCRATCH_DIR.test(entry.name)) {
			await remove(entry.name);
		} else if (entry.isDirectory() && PATH_SAFE_ID.test(entry.name)) {
			const files = await entriesOf(path);
			const source = files.find((f) => f.name === KEPT_SOURCE && f.isFile());
			const changedAt = source ? await changedAtOf(join(path, KEPT_SOURCE)) : 0;
			if (!source || now - changedAt >= options.idleMs) {
				await remove(entry.name);
				continue;
			}
			for (const file of files) if (file !== source) await remove(join(entry.name, file.name));
		}
	}
	return { removed };
}

/**
 * Files under `root` that belong to jobs (everything but `_shared`'s cached backgrounds): what an
 * operator, or the soak's report, counts as left behind.
 */
export async function jobFilesIn(root: string): Promise<string[]> {
	const found: string[] = [];
	const walk = async (relative: string): Promise<void> => {
		for (const entry of await entriesOf(join(root, relative))) {
			const child = relative ? join(relative, entry.name) : entry.name;
			if (entry.isDirectory()) await walk(child);
			else if (!child.startsWith("_shared/") || SHARED_TEMP.test(entry.name)) found.push(child);
		}
	};
	await walk("");
	return found.sort();
}

async function entriesOf(dir: string) {
	return readdir(dir, { withFileTypes: true }).catch(() => []);
}

/** When the file last changed, renames included (ctime: a download's mtime may be the server's Last-Modified). */
async function changedAtOf(path: string): Promise<number> {
	return stat(path).then(
		(s) => Math.max(s.mtimeMs, s.ctimeMs),
		() => 0,
	);
}
