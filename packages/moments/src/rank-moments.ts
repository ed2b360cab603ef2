/**
 * Picks the moments of a video. In production an LLM analyses the transcript for both models
 * (ClipBasic: the fast model in one pass; ClipPro: the strong model in two passes); without an
 * LLM, or when it fails, the offline ranker runs, and `rankedBy` says which ran and why. When only
 * some of the model's calls failed, its clips are kept and the offline ranker's fill the time it
 * did not read. When every call failed for reasons that pass (capacity, timeouts), the error is
 * thrown so the workflow step retries; only its final attempt falls back to the offline ranker.
 */
import type { ConfigShape } from "@clipforge/domain";
import type { Transcript } from "./text/transcript.ts";
import { rankWithFastLlm } from "./ranking/llm/basic.ts";
import type { LlmClient } from "./llm/client.ts";
import { LlmUnavailableError } from "./llm/errors.ts";
import type { LlmRanking } from "./ranking/llm/llm-ranking.ts";
import { rankWithStrongLlm } from "./ranking/llm/pro.ts";
import { MAX_CLIPS, rankOffline } from "./ranking/offline/rank-offline.ts";
import { analyseTalk, type RankConfig } from "./ranking/offline/talk-analysis.ts";
import type { AudioSignals } from "./ranking/offline/signals.ts";
import { fewerClipsNote } from "./ranking/offline/fewer-clips.ts";
import type { RankedClip } from "./ranking/ranked-clip.ts";

export interface RankOutcome {
	clips: RankedClip[];
	/** What really ranked: `ClipPro (llm: …)`, or the offline ranker and why. */
	rankedBy: string;
	/** Why there are fewer clips than usual (a prompt nothing matches), or why the prompt could not narrow them, for the video record. */
	note: string | null;
}

export type MomentsConfig = RankConfig & Pick<ConfigShape, "clipModel" | "genre">;

export interface RankOptions {
	/**
	 * False while the workflow step has attempts left: an LLM that is only unavailable for now
	 * (every call failed on capacity or timeouts) then throws, so the step is retried later instead
	 * of settling for the offline ranker. Defaults to true (fall back at once).
	 */
	finalAttempt?: boolean;
}

export async function rankMoments(
	transcript: Transcript,
	config: MomentsConfig,
	signals: AudioSignals | null = null,
	llm: LlmClient | null = null,
	options: RankOptions = {},
): Promise<RankOutcome> {
	const offline = (why: string): RankOutcome => {
		const { clips, note } = rankOffline(transcript, config, signals);
		return { clips, note, rankedBy: `${config.clipModel} (offline ranker: ${why})` };
	};
	if (!llm) return offline("no LLM is configured");
	// split-clips cuts the frame into parts: no choice of moments for a model to make.
	if (config.clipType === "split-clips") return offline("split-clips needs no choice of moments");
	const talk = analyseTalk(transcript, config, signals);
	if (!talk) return offline("no speech in the time frame");
	let ranking: LlmRanking;
	try {
		const rank = config.clipModel === "ClipPro" ? rankWithStrongLlm : rankWithFastLlm;
		ranking = await rank(llm, talk, config.genre);
	} catch (error) {
		if (error instanceof LlmUnavailableError && options.finalAttempt === false) throw error;
		return offline(`fallback, ${llm.name} failed: ${(error as Error).message.slice(0, 160)}`);
	}
	const clips =
		ranking.missed.length > 0
			? withOfflineFill(ranking, rankOffline(transcript, config, signals).clips)
			: ranking.clips;
	const note =
		clips.length === 0 && talk.promptText
			? "No clips: the model found no passage matching the prompt."
			: fewerClipsNote(talk, clips.length);
	const filled =
		clips.length > ranking.clips.length
			? `; the offline ranker filled the rest with ${clips.length - ranking.clips.length} clip(s)`
			: "";
	return {
		clips,
		note,
		rankedBy: `${config.clipModel} (${llm.name}${ranking.shortfall ? `; ${ranking.shortfall}${filled}` : ""})`,
	};
}

/** The model's clips, plus the offline ranker's from the time the model did not read (mostly inside it, overlapping none), best first. */
function withOfflineFill(ranking: LlmRanking, offlineClips: RankedClip[]): RankedClip[] {
	const insideMissed = (clip: RankedClip) =>
		ranking.missed.some(
			(range) =>
				Math.min(clip.end, range.end) - Math.max(clip.start, range.start) >= 0.5 * (clip.end - clip.start),
		);
	const kept = [...ranking.clips];
	for (const clip of offlineClips.filter(insideMissed)) {
		if (!kept.some((k) => Math.min(k.end, clip.end) > Math.max(k.start, clip.start))) kept.push(clip);
	}
	return kept.sort((a, b) => b.score - a.score || a.start - b.start).slice(0, MAX_CLIPS);
}
