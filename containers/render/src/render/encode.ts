/**
 * A clip's encode: carries out its plan (plan.ts). Writes the files the pass reads (the ASS
 * document, the watermark's text), fetches the watermark image and the split-screen background,
 * runs the one ffmpeg pass (the clip and its thumbnail) and makes sure a thumbnail came out.
 */
import { writeFile } from "node:fs/promises";
import type { OnProgress } from "@clipforge/contract";
import { plainThumbnailArgs } from "../ffmpeg/clip-args.ts";
import { ffmpegProgressReader } from "../ffmpeg/progress.ts";
import { jobTimeouts } from "../runtime/job-timeouts.ts";
import { runProcess } from "../runtime/run-process.ts";
import { tools } from "../runtime/tool-paths.ts";
import { fetchOnce, fetchToFile } from "../runtime/transfer.ts";
import { fileSize } from "../runtime/workdir.ts";
import { mediaDuration } from "../source/stored-media.ts";
import type { ClipPlan } from "./plan.ts";

/** @returns the rendered clip's duration */
export async function encodeClip(plan: ClipPlan, onProgress: OnProgress, signal: AbortSignal): Promise<number> {
	for (const { path, text } of plan.writes) await writeFile(path, text, "utf8");
	if (plan.watermarkImage) await fetchToFile(plan.watermarkImage.url, plan.watermarkImage.path, signal);
	// Fetched once per instance and kept: every clip of a split-screen video reuses it.
	if (plan.background) await fetchOnce(plan.background.url, plan.background.path, signal);
	await runProcess(tools.ffmpeg, plan.args, {
		timeoutMs: jobTimeouts.renderEncode(plan.duration),
		signal,
		collectStdout: false,
		onStdoutLine: ffmpegProgressReader(plan.duration, onProgress),
	});
	return ensureThumbnail(plan.video, plan.thumbnail, signal);
}

/**
 * The rendered clip's duration, after making sure it has a thumbnail: when every candidate frame
 * was dark (a night scene, a black intro), any frame is better than none.
 */
async function ensureThumbnail(
	videoPath: string,
	thumbnail: { path: string; width: number },
	signal: AbortSignal,
): Promise<number> {
	const renderedDuration = await mediaDuration(videoPath, signal);
	if (!(await fileSize(thumbnail.path))) {
		const args = plainThumbnailArgs(videoPath, renderedDuration, thumbnail.path, thumbnail.width);
		await runProcess(tools.ffmpeg, args, { timeoutMs: 2 * 60_000, signal });
	}
	return renderedDuration;
}
