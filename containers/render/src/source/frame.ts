/**
 * Only what was paid for is kept: a source is cut to the video's time frame before it is stored
 * (issue 45, H1: a 1-minute charge must not buy the whole file). The cut is a stream copy (no
 * re-encode, seconds even for hours), and the kept file's time 0 is `frame.start` of the source;
 * the Worker sends that start with every later job (`sourceStart`) and the tier seeks
 * `time - sourceStart` into the file (fileTime below).
 */
import { open, rm } from "node:fs/promises";
import type { SourceFrame } from "@clipforge/contract";
import { frameCopyArgs } from "../ffmpeg/source-args.ts";
import { jobTimeouts } from "../runtime/job-timeouts.ts";
import { ProcessError, runProcess } from "../runtime/run-process.ts";
import { TierError } from "../runtime/tier-error.ts";
import { tools } from "../runtime/tool-paths.ts";

/** A time of the source (seconds) as a time of the stored file that begins at `sourceStart`. */
export const fileTime = (sourceTime: number, sourceStart: number): number => Math.max(0, sourceTime - sourceStart);

/**
 * Copies `frame` of `input` (a local file or a stored upload's signed URL) into `output`: as MP4
 * when the streams fit in it (every download does: yt-dlp remuxes to MP4), else as Matroska,
 * which takes any codec an upload may have (VP8, Vorbis, …).
 */
export async function copyFrame(
	input: string,
	frame: SourceFrame,
	output: string,
	signal?: AbortSignal,
): Promise<void> {
	const length = frame.end - frame.start;
	const run = (format: "mp4" | "matroska") =>
		runProcess(tools.ffmpeg, frameCopyArgs(input, frame.start, length, output, format), {
			timeoutMs: jobTimeouts.frameCopy(length),
			signal,
			collectStdout: false,
		});
	try {
		await run("mp4");
	} catch (error) {
		await rm(output, { force: true });
		if (!(error instanceof ProcessError) || error.reason !== "exit") throw error;
		try {
			await run("matroska");
		} catch {
			await rm(output, { force: true });
			throw new TierError(
				"unsupported_source",
				"The video's time frame could not be copied out of it.",
				false,
				422,
			);
		}
	}
}

/** The stored type of a kept source, from its first bytes: Matroska's EBML header, else MP4. */
export async function storedSourceType(path: string): Promise<"video/mp4" | "video/x-matroska"> {
	const file = await open(path, "r");
	try {
		const { buffer } = await file.read(Buffer.alloc(4), 0, 4, 0);
		return buffer.readUInt32BE(0) === 0x1a45dfa3 ? "video/x-matroska" : "video/mp4";
	} finally {
		await file.close();
	}
}
