/**
 * The steps of a reprocess that differ from a first run's: "load reprocess", "compute signals"
 * (reused when stored), "rank moments" (into the reprocess's own clip generation), "finish
 * reprocess" (the new clips replace the old ones) and "mark reprocess failed and refund its
 * minutes" (services/reprocess-state.ts). Rendering is the first run's own step.
 */
import type { AudioSignals } from "@clipforge/contract";
import { NonRetryableError } from "cloudflare:workflows";
import { replaceGenerationClips } from "../../worker/db/clips";
import { completeReprocess, findReprocess } from "../../worker/db/reprocesses";
import { findVideoById } from "../../worker/db/videos";
import { noClipsSettlement } from "../../worker/domain/minutes";
import { r2Keys } from "../../worker/services/r2-keys";
import { wakeWaiting } from "../../worker/services/processing-slots";
import type { RankOptions } from "@clipforge/moments/rank-moments";
import { deleteUnlistedClipFiles, failReprocessAndRefund } from "../../worker/services/reprocess-state";
import { computeSignals, newClipId, rankTranscript } from "./rank";
import { loadVideo, type LoadedVideo, type VideoRun } from "./run";

export interface LoadedReprocess {
	id: string;
	number: number;
	status: string;
	sourceKey: string;
	transcriptKey: string;
}

/** The video (with the reprocess's config, stored when it started) and the stored files it reuses. */
export async function loadReprocess(
	run: VideoRun,
	reprocessId: string,
): Promise<{ video: LoadedVideo; reprocess: LoadedReprocess }> {
	const [row, videoRow] = await Promise.all([findReprocess(run.db, reprocessId), findVideoById(run.db, run.videoId)]);
	if (!row || !videoRow) throw new NonRetryableError(`Reprocess ${reprocessId} does not exist.`);
	const sourceKey = videoRow.sourceKey ?? r2Keys.source(run.videoId);
	const transcriptKey = videoRow.transcriptKey ?? r2Keys.transcript(run.videoId);
	const reprocess = { id: row.id, number: row.number, status: row.status, sourceKey, transcriptKey };
	if (row.status !== "processing") return { video: await loadVideo(run), reprocess };
	const [source, transcript] = await Promise.all([run.env.MEDIA.head(sourceKey), run.env.MEDIA.head(transcriptKey)]);
	if (!source || !transcript)
		throw new NonRetryableError("The stored source or transcript of the video is no longer there.");
	return { video: await loadVideo(run), reprocess };
}

/** The loudness measured on the first run is the same source's: reused, measured again only if missing. */
export async function reuseOrComputeSignals(
	run: VideoRun,
	video: LoadedVideo,
): Promise<{ key: string; intervals: number }> {
	const key = r2Keys.signals(run.videoId);
	const stored = await run.env.MEDIA.get(key);
	if (stored) return { key, intervals: ((await stored.json()) as AudioSignals).loudness.length };
	return computeSignals(run, video);
}

/** The first run's ranking, with the new config, into clips of the reprocess's generation. */
export async function rankReprocess(
	run: VideoRun,
	video: LoadedVideo,
	reprocess: LoadedReprocess,
	signals: { key: string; intervals: number },
	options: RankOptions = {},
) {
	const { clips, rankedBy, note } = await rankTranscript(run, video, reprocess.transcriptKey, signals, options);
	const ids = clips.map(() => newClipId());
	await replaceGenerationClips(
		run.db,
		{ id: run.videoId, workspaceId: video.workspaceId, aspectRatio: video.config.aspectRatio },
		reprocess.number,
		clips.map((clip, n) => ({ ...clip, id: ids[n]! })),
	);
	return { clipIds: ids, rankedBy, note };
}

/** The new clips replace the previous ones (rows at once, then their files). */
export async function finishReprocess(
	run: VideoRun,
	video: Pick<LoadedVideo, "config">,
	reprocess: LoadedReprocess,
	ranked: { clipIds: string[]; rankedBy: string; note: string | null },
): Promise<{ clips: number }> {
	// No clips: the same rule as a first run's (domain/minutes.ts), for what this reprocess was charged.
	const noClips = ranked.clipIds.length === 0 ? noClipsSettlement(video.config) : null;
	const note = noClips ? [ranked.note, noClips.note].filter(Boolean).join(" ") : ranked.note;
	await completeReprocess(
		run.db,
		{ id: reprocess.id, videoId: run.videoId, number: reprocess.number },
		{ rankedBy: ranked.rankedBy, note, clips: ranked.clipIds.length },
		{ refund: noClips?.refund ? "refund: completed with no clips" : undefined },
	);
	await deleteUnlistedClipFiles(run.env, run.db, run.videoId);
	// Its processing slot is free: the workspace's next waiting video may start.
	const row = await findVideoById(run.db, run.videoId);
	if (row) await wakeWaiting(run.env, run.db, row.workspaceId);
	return { clips: ranked.clipIds.length };
}

export async function failReprocessStep(
	run: VideoRun,
	reprocessId: string,
	cause: string,
): Promise<{ failed: true; minutesRefunded: number }> {
	return { failed: true, minutesRefunded: await failReprocessAndRefund(run.env, run.db, reprocessId, cause) };
}
