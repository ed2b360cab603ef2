/**
 * The tier's jobs: each takes a validated request, reports progress, and returns the contract's
 * result. HTTP plumbing lives in server.ts.
 */
import { join } from "node:path";
import { rm, writeFile } from "node:fs/promises";
import type {
	ExtractAudioRequest, ExtractAudioResult, RenderClipRequest, RenderClipResult, UploadSourceRequest, UploadSourceResult,
} from "./contract.ts";
import { OUTPUT_SIZE } from "./contract.ts";
import { downloadSource, sourcePath, type OnProgress } from "./download.ts";
import { extractAudioChunkArgs, renderClipArgs, thumbnailArgs } from "./ffmpeg-args.ts";
import { ffmpegProgressReader } from "./ffmpeg-progress.ts";
import { runProcess } from "./run-process.ts";
import { tools } from "./tool-paths.ts";
import { putFile } from "./transfer.ts";
import { videoDir } from "./workdir.ts";

/** Uploads the downloaded source; downloads it again first if this instance does not have it. */
export async function uploadSource(req: UploadSourceRequest, onProgress: OnProgress, signal: AbortSignal): Promise<UploadSourceResult> {
	await downloadSource(req.videoId, req.url, (f) => onProgress(f * 0.5), signal);
	const bytes = await putFile(await sourcePath(req.videoId), req.putUrl, "video/mp4", (f) => onProgress(0.5 + f * 0.5), signal);
	return { bytes };
}

export async function extractAudio(req: ExtractAudioRequest, onProgress: OnProgress, signal: AbortSignal): Promise<ExtractAudioResult> {
	const dir = await videoDir(req.videoId);
	const chunks: ExtractAudioResult["chunks"] = [];
	for (const [position, chunk] of req.chunks.entries()) {
		const path = join(dir, `audio-${chunk.index}.mp3`);
		const share = (f: number) => onProgress((position + f * 0.8) / req.chunks.length);
		await runProcess(tools.ffmpeg, extractAudioChunkArgs(req.sourceUrl, chunk.start, chunk.duration, path), {
			timeoutMs: 30 * 60_000,
			signal,
			collectStdout: false,
			onStdoutLine: ffmpegProgressReader(chunk.duration, share),
		});
		const bytes = await putFile(path, chunk.putUrl, "audio/mpeg", undefined, signal);
		chunks.push({ index: chunk.index, start: chunk.start, duration: chunk.duration, bytes });
		onProgress((position + 1) / req.chunks.length);
	}
	return { chunks };
}

export async function renderClip(req: RenderClipRequest, onProgress: OnProgress, signal: AbortSignal): Promise<RenderClipResult> {
	const dir = await videoDir(req.videoId);
	const videoPath = join(dir, `${req.clipId}.mp4`);
	const thumbPath = join(dir, `${req.clipId}.jpg`);
	let watermarkTextFile: string | null = null;
	if (req.watermarkText) {
		// Text goes to drawtext through a file: no user text is ever spliced into the filtergraph.
		watermarkTextFile = join(dir, `${req.clipId}.watermark.txt`);
		await writeFile(watermarkTextFile, req.watermarkText, "utf8");
	}
	const duration = req.end - req.start;
	await runProcess(
		tools.ffmpeg,
		renderClipArgs({ sourceUrl: req.sourceUrl, start: req.start, end: req.end, aspectRatio: req.aspectRatio, watermarkTextFile, outputPath: videoPath }),
		{ timeoutMs: Math.max(10 * 60_000, duration * 20_000), signal, collectStdout: false, onStdoutLine: ffmpegProgressReader(duration, (f) => onProgress(f * 0.85)) },
	);
	await runProcess(tools.ffmpeg, thumbnailArgs({ sourceUrl: req.sourceUrl, start: req.start, end: req.end, aspectRatio: req.aspectRatio, outputPath: thumbPath }), {
		timeoutMs: 2 * 60_000,
		signal,
	});
	const bytes = await putFile(videoPath, req.videoPutUrl, "video/mp4", (f) => onProgress(0.85 + f * 0.13), signal);
	const thumbnailBytes = await putFile(thumbPath, req.thumbnailPutUrl, "image/jpeg", undefined, signal);
	const renderedDuration = await mediaDuration(videoPath, signal);
	// Uploaded: the scratch copies only fill the instance's disk (renders of one video may land on any instance).
	await Promise.all([videoPath, thumbPath, watermarkTextFile].filter((p): p is string => p !== null).map((p) => rm(p, { force: true })));
	onProgress(1);
	return { bytes, thumbnailBytes, ...OUTPUT_SIZE[req.aspectRatio], duration: renderedDuration };
}

async function mediaDuration(path: string, signal: AbortSignal): Promise<number> {
	const { stdout } = await runProcess(tools.ffprobe, ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path], {
		timeoutMs: 30_000,
		signal,
	});
	return Number(stdout.trim());
}
