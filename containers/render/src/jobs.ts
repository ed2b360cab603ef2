/**
 * The tier's jobs: each takes a validated request, reports progress, and returns the contract's
 * result. HTTP plumbing lives in server.ts.
 */
import { join } from "node:path";
import type {
	ExtractAudioRequest, ExtractAudioResult, OnProgress, UploadSourceRequest, UploadSourceResult,
} from "@clipforge/contract";
import { downloadSource, sourcePath } from "./download.ts";
import { extractAudioChunkArgs } from "./ffmpeg-args.ts";
import { ffmpegProgressReader } from "./ffmpeg-progress.ts";
import { jobTimeouts } from "./job-timeouts.ts";
import { runProcess } from "./run-process.ts";
import { tools } from "./tool-paths.ts";
import { putFile } from "./transfer.ts";
import { videoDir } from "./workdir.ts";

/** Uploads the downloaded source; downloads it again first if this instance does not have it. */
export async function uploadSource(req: UploadSourceRequest, onProgress: OnProgress, signal: AbortSignal): Promise<UploadSourceResult> {
	await downloadSource(req, (f) => onProgress(f * 0.5), signal);
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
			timeoutMs: jobTimeouts.audioChunk(chunk.duration),
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
