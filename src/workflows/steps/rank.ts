/** Steps "compute signals" (loudness from the tier) and "rank moments" (the clips, stored queued). */
import type { AudioSignals } from "@clipforge/contract";
import { replaceClips } from "../../worker/db/clips";
import { frameOf } from "../../worker/domain/video-config";
import { newId } from "../../worker/services/crypto";
import { r2Keys } from "../../worker/services/r2-keys";
import { createLlm } from "../../worker/services/llm/client";
import { renderInstance } from "../../worker/services/render-instances";
import { signInternalObjectUrl } from "../../worker/services/signing";
import type { RankOptions, RankOutcome } from "@clipforge/moments/rank-moments";
import type { Transcript } from "@clipforge/moments/text";
import { readJson, renderJob, storedSource, type LoadedVideo, type VideoRun } from "./run";

/**
 * Runs beside the upload and the transcription (from the tier's copy of the download when it has
 * one), so it neither moves the stage nor reports progress: "rank moments" enters `analyzing`.
 */
export async function computeSignals(run: VideoRun, video: LoadedVideo): Promise<{ key: string; intervals: number }> {
	const key = r2Keys.signals(run.videoId);
	const stored = await storedSource(run);
	const [sourceUrl, putUrl] = await Promise.all([
		signInternalObjectUrl(run.env, stored.key, "GET"),
		signInternalObjectUrl(run.env, key, "PUT"),
	]);
	// Only the charged time frame is measured (the ranking reads loudness inside it only).
	const request = {
		videoId: run.videoId,
		sourceUrl,
		sourceStart: stored.start,
		duration: video.duration,
		...frameOf(video.config, video.duration),
		putUrl,
	};
	const result = await renderJob(
		run,
		"Measuring the audio",
		renderInstance.video(run.env, run.videoId),
		"signals",
		request,
	);
	return { key, intervals: result.intervals };
}

/** The stored transcript (and loudness) ranked with the video's config: the clips, who ranked them and why there are fewer. */
export async function rankTranscript(
	run: VideoRun,
	video: LoadedVideo,
	transcriptKey: string,
	signals: { key: string; intervals: number },
	options: RankOptions = {},
): Promise<RankOutcome> {
	const transcript = await readJson<Transcript>(run, transcriptKey);
	const audio = signals.intervals > 0 ? await readJson<AudioSignals>(run, signals.key) : null;
	const llm = createLlm(run.env, video.config.clipModel === "ClipPro" ? "strong" : "fast");
	// Loaded here, not at start-up: the ranker's English model is megabytes of JavaScript that no
	// other request needs (imported lazily, it costs nothing on a cold start for an API call).
	const { rankMoments: rank } = await import("@clipforge/moments/rank-moments");
	const outcome = await rank(transcript, video.config, audio, llm, options);
	return { ...outcome, clips: atMost(outcome.clips, video.config.maxClips) };
}

/** The `max` best clips by score (all when null), in the ranker's order. */
function atMost<C extends { score: number }>(clips: C[], max: number | null): C[] {
	if (max === null || clips.length <= max) return clips;
	const best = new Set([...clips].sort((a, b) => b.score - a.score).slice(0, max));
	return clips.filter((clip) => best.has(clip));
}

/**
 * A clip's id: random, so no one can guess the id of a clip before it is listed (ids of clips made
 * before were `clp_<video>_<n>` and `clp_<video>_r<reprocess>_<n>`, and stay readable as they are).
 */
export const newClipId = () => newId("clp", 12);

/** Replaces, not appends: a repeated step leaves exactly this ranking. */
export async function rankMoments(
	run: VideoRun,
	video: LoadedVideo,
	transcriptKey: string,
	signals: { key: string; intervals: number },
	options: RankOptions = {},
): Promise<{ clipIds: string[] }> {
	const { clips, rankedBy, note } = await rankTranscript(run, video, transcriptKey, signals, options);
	const ids = clips.map(() => newClipId());
	await replaceClips(
		run.db,
		{ id: run.videoId, workspaceId: video.workspaceId, aspectRatio: video.config.aspectRatio },
		clips.map((clip, n) => ({ ...clip, id: ids[n]! })),
		{ rankedBy, note },
	);
	return { clipIds: ids };
}

/**
 * Whether this is the step's last attempt (a step context's attempts count from 1, and `limit`
 * retries follow the first): only then does an LLM that is unavailable for now give way to the
 * offline ranker.
 */
export function rankAttempt(ctx: { attempt: number; config: { retries?: { limit: number } } }): RankOptions {
	return { finalAttempt: ctx.attempt > (ctx.config.retries?.limit ?? 0) };
}
