import { mkdir, mkdtemp, rm, stat } from "node:fs/promises";
import { isAbsolute, join, relative, resolve } from "node:path";
import { PATH_SAFE_ID } from "@clipforge/contract";
import { holdPath } from "./job-context.ts";
import { TierError } from "./tier-error.ts";
import { workRoot } from "./tool-paths.ts";

/**
 * `base` joined with `names`, resolved, and refused unless it stays strictly inside `base`. The
 * second line of defence behind the contract's id pattern (PathSafeId): whatever reaches a path,
 * nothing is read, written or deleted outside the work folder.
 * @example pathInside("/work", "vid_1", "clp_1.mp4") // "/work/vid_1/clp_1.mp4"; pathInside("/work", "..") throws
 */
export function pathInside(base: string, ...names: string[]): string {
	const root = resolve(base);
	if (names.some((name) => name.includes("\0"))) throw unsafe(names);
	const path = resolve(root, ...names);
	const rel = relative(root, path);
	if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) throw unsafe(names);
	return path;
}

/**
 * A video's own folder under the work root (created), for an id of the contract's shape only. The
 * running job holds it: no sweep touches it until every job using it has ended.
 */
export async function videoDir(videoId: string): Promise<string> {
	const dir = holdPath(pathInside(workRoot, checkedId(videoId)));
	await mkdir(dir, { recursive: true });
	return dir;
}

/**
 * A scratch folder of the running job under the work root (`asr-…`, `preview-…`), held while the job
 * runs. The job removes it when it ends; if the job is cut off first (its process killed), the
 * sweep does (sweep.ts: any `<prefix>-…` folder no running job holds).
 */
export async function jobScratchDir(prefix: "asr" | "preview"): Promise<string> {
	await mkdir(workRoot, { recursive: true });
	return holdPath(await mkdtemp(join(workRoot, `${prefix}-`)));
}

/** A file of a video's folder named after one of its ids (`clp_…` + suffix). */
export function idFile(dir: string, id: string, suffix: string): string {
	return pathInside(dir, `${checkedId(id)}${suffix}`);
}

export async function fileSize(path: string): Promise<number | null> {
	try {
		const info = await stat(path);
		return info.isFile() ? info.size : null;
	} catch {
		return null;
	}
}

export async function removeVideoDir(videoId: string): Promise<void> {
	await rm(pathInside(workRoot, checkedId(videoId)), { recursive: true, force: true });
}

/**
 * Files shared by every video on this instance (split-screen backgrounds), kept until it stops. A
 * job's temporary files in it are held with holdPath; the sweep removes those no job holds.
 */
export async function sharedDir(): Promise<string> {
	const dir = pathInside(workRoot, "_shared");
	await mkdir(dir, { recursive: true });
	return dir;
}

function checkedId(id: string): string {
	if (!PATH_SAFE_ID.test(id)) throw unsafe([id]);
	return id;
}

function unsafe(names: string[]): TierError {
	return new TierError(
		"invalid_request",
		`Unsafe id or file name ${JSON.stringify(names.join("/")).slice(0, 80)}.`,
		false,
		400,
	);
}
