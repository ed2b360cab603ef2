/**
 * ffprobe's quick reads of a stored file: a source's picture size before a render frames it, and a
 * finished file's duration (a clip, an imported background).
 */
import { durationArgs, frameSizeArgs } from "../ffmpeg/source-args.ts";
import { runProcess } from "../runtime/run-process.ts";
import { tools } from "../runtime/tool-paths.ts";

/** The stored source's picture size (frameSizeArgs: held to the upload formats). */
export async function videoSize(url: string, signal?: AbortSignal): Promise<{ width: number; height: number }> {
	const { stdout } = await runProcess(tools.ffprobe, frameSizeArgs(url), { timeoutMs: 30_000, signal });
	const [width, height] = stdout.trim().split(",").map(Number);
	if (!width || !height) throw new Error("The source's frame size could not be read.");
	return { width, height };
}

/** A file's duration in seconds, as its container says. */
export async function mediaDuration(path: string, signal: AbortSignal): Promise<number> {
	const { stdout } = await runProcess(tools.ffprobe, durationArgs(path), { timeoutMs: 30_000, signal });
	return Number(stdout.trim());
}
