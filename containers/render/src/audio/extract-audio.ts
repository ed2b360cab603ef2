/**
 * The source's sound cut into the transcription's chunks (16 kHz mono MP3), each stored at its
 * signed URL. The chunks are cut one per core at once (each ffmpeg decodes audio on one thread): on
 * a four-vCPU instance a 30-minute source's audio is ready in a quarter of the time. Progress is the
 * share of chunks stored.
 */
import { availableParallelism } from "node:os";
import { join } from "node:path";
import type { ExtractAudioRequest, ExtractAudioResult, OnProgress } from "@clipforge/contract";
import { extractAudioChunkArgs } from "../ffmpeg/source-args.ts";
import { jobTimeouts } from "../runtime/job-timeouts.ts";
import { runProcess } from "../runtime/run-process.ts";
import { tools } from "../runtime/tool-paths.ts";
import { putFile } from "../runtime/transfer.ts";
import { videoDir } from "../runtime/workdir.ts";
import { downloadedOrUrl } from "../source/download.ts";
import { fileTime } from "../source/frame.ts";

export async function extractAudioChunks(
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
