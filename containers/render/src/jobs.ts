/**
 * The tier's jobs: each takes a validated request, reports progress, and returns the contract's
 * result. HTTP plumbing lives in server.ts.
 */
import { availableParallelism } from "node:os";
import { join } from "node:path";
import type {
	ExtractAudioRequest,
	ExtractAudioResult,
	OnProgress,
	UploadSourceRequest,
	UploadSourceResult,
} from "@clipforge/contract";
import { downloadedOrUrl, downloadSource, sourcePath } from "./download.ts";
import { extractAudioChunkArgs } from "./ffmpeg/source-args.ts";
import { jobTimeouts } from "./runtime/job-timeouts.ts";
import { runProcess } from "./runtime/run-process.ts";
import { fileTime, storedSourceType } from "./source-frame.ts";
import { tools } from "./runtime/tool-paths.ts";
import { putFile } from "./runtime/transfer.ts";
import { videoDir } from "./runtime/workdir.ts";

/** Uploads the downloaded source; downloads it again first if this instance does not have it. */
export async function uploadSource(
	req: UploadSourceRequest,
	onProgress: OnProgress,
	signal: AbortSignal,
): Promise<UploadSourceResult> {
	await downloadSource(req, (f) => onProgress(f * 0.5), signal);
	const path = await sourcePath(req.videoId);
	// A frame copied out of an upload may be Matroska (codecs MP4 cannot hold): stored as what it is.
	const bytes = await putFile(
		path,
		req.putUrl,
		await storedSourceType(path),
		(f) => onProgress(0.5 + f * 0.5),
		signal,
	);
	return { bytes };
}

/**
 * The chunks are cut one per core at once (each ffmpeg decodes audio on one thread): on a
 * four-vCPU instance a 30-minute source's audio is ready in a quarter of the time. Progress is the
 * share of chunks stored.
 */
export async function extractAudio(
	req: ExtractAudioRequest,
	onProgress: OnProgress,
	signal: AbortSignal,
): Promise<ExtractAudioResult> {
	const dir = await videoDir(req.videoId);
	const source = await downloadedOrUrl(req.videoId, req.sourceUrl);
	const chunks: ExtractAudioResult["chunks"] = [];
	let next = 0;
	const lane = async () => {
		while (next < req.chunks.length) {
			const chunk = req.chunks[next++]!;
			const path = join(dir, `audio-${chunk.index}.mp3`);
			const start = fileTime(chunk.start, req.sourceStart);
			await runProcess(tools.ffmpeg, extractAudioChunkArgs(source, start, chunk.duration, path), {
				timeoutMs: jobTimeouts.audioChunk(chunk.duration),
				signal,
				collectStdout: false,
			});
			const bytes = await putFile(path, chunk.putUrl, "audio/mpeg", undefined, signal);
			chunks.push({ index: chunk.index, start: chunk.start, duration: chunk.duration, bytes });
			onProgress(chunks.length / req.chunks.length);
		}
	};
	await Promise.all(Array.from({ length: Math.min(availableParallelism(), req.chunks.length) }, lane));
	return { chunks: chunks.sort((a, b) => a.index - b.index) };
}
