/**
 * Steps "extract audio", "transcribe chunk N of M" (in parallel) and "merge transcript". Only the
 * config's time frame is transcribed, in chunks with overlaps whose seam words are kept once.
 */
import { NonRetryableError } from "cloudflare:workflows";
import type { TranscribeResult } from "@clipforge/contract";
import { recordTranscript } from "../../worker/db/videos";
import { frameOf } from "../../worker/domain/video-config";
import { r2Keys } from "../../worker/services/r2-keys";
import { RenderTierError } from "../../worker/services/render-client";
import { renderInstance } from "../../worker/services/render-instances";
import { signInternalObjectUrl } from "../../worker/services/signing";
import { createTranscriber } from "../../worker/services/transcription/transcriber";
import { mergeChunkTranscripts, planAudioChunks, type ChunkPlan } from "../../worker/services/transcription/transcript";
import { settingsOf } from "../../worker/settings";
import {
	putJson,
	readJson,
	renderJob,
	storedSource,
	type LoadedVideo,
	type StepProgressReport,
	type VideoRun,
} from "./run";

/**
 * Runs beside the upload: the tier cuts the chunks from its own copy of the download when it has
 * one (the R2 source otherwise), so it reports no progress of its own and leaves the stage to the
 * chunks (the video is still `uploading`).
 */
export async function extractAudioStep(run: VideoRun, video: LoadedVideo): Promise<ChunkPlan[]> {
	const frame = frameOf(video.config, video.duration);
	const plan = planAudioChunks(frame.start, frame.end, settingsOf(run.env).audioChunkSeconds);
	const stored = await storedSource(run);
	const sourceUrl = await signInternalObjectUrl(run.env, stored.key, "GET");
	const specs = await Promise.all(
		plan.map(async (c) => ({
			...c,
			putUrl: await signInternalObjectUrl(run.env, r2Keys.audioChunk(run.videoId, c.index), "PUT"),
		})),
	);
	await renderJob(run, "Extracting the audio", renderInstance.video(run.env, run.videoId), "extractAudio", {
		videoId: run.videoId,
		sourceUrl,
		sourceStart: stored.start,
		chunks: specs,
	});
	return plan;
}

/** Chunks run in parallel; each one's progress is placed in its part of the band by the runner (staged-steps.ts). */
export async function transcribeChunk(
	run: VideoRun,
	video: LoadedVideo,
	chunk: ChunkPlan,
	progress: StepProgressReport,
): Promise<{ key: string }> {
	const key = r2Keys.transcriptChunk(run.videoId, chunk.index);
	if (!(await run.env.MEDIA.head(key))) {
		const transcriber = createTranscriber(run.env);
		const result = await asTranscriptionFailure(() =>
			transcriber.transcribeChunk(
				{
					videoId: run.videoId,
					workspaceId: video.workspaceId,
					key: r2Keys.audioChunk(run.videoId, chunk.index),
				},
				video.config.language,
				progress,
			),
		);
		await putJson(run, key, result);
	}
	return { key };
}

export async function mergeTranscript(
	run: VideoRun,
	video: LoadedVideo,
	chunks: ChunkPlan[],
): Promise<{ key: string; words: number; language: string }> {
	const parts = await Promise.all(
		chunks.map(async (plan) => ({
			plan,
			result: await readJson<TranscribeResult>(run, r2Keys.transcriptChunk(run.videoId, plan.index)),
		})),
	);
	const transcript = mergeChunkTranscripts(parts, video.duration);
	if (transcript.words.length === 0) {
		throw new NonRetryableError(
			"No speech was found in the video (or in its time frame), so there is nothing to transcribe or clip. The minutes were refunded.",
		);
	}
	const key = r2Keys.transcript(run.videoId);
	await putJson(run, key, transcript);
	await recordTranscript(run.db, run.videoId, key, transcript.language);
	return { key, words: transcript.words.length, language: transcript.language };
}

async function asTranscriptionFailure<T>(transcribe: () => Promise<T>): Promise<T> {
	try {
		return await transcribe();
	} catch (error) {
		if (error instanceof RenderTierError && !error.retryable)
			throw new NonRetryableError(`Transcription failed: ${error.message}`);
		throw new Error(`Transcription failed: ${(error as Error).message}`);
	}
}
