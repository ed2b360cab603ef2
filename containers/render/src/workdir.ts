import { mkdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { workRoot } from "./tool-paths.ts";

/** Ids reach file paths, so only plain id characters are accepted (no `/`, no `..`). */
const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;

export async function videoDir(videoId: string): Promise<string> {
	if (!SAFE_ID.test(videoId)) throw new Error(`unsafe id ${JSON.stringify(videoId)}`);
	const dir = join(workRoot, videoId);
	await mkdir(dir, { recursive: true });
	return dir;
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
	if (!SAFE_ID.test(videoId)) return;
	await rm(join(workRoot, videoId), { recursive: true, force: true });
}

/** Files shared by every video on this instance (split-screen backgrounds), kept until it stops. */
export async function sharedDir(): Promise<string> {
	const dir = join(workRoot, "_shared");
	await mkdir(dir, { recursive: true });
	return dir;
}
