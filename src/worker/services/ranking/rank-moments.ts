/**
 * Picks the moments of a video. In production an LLM analyses the transcript for both models
 * (ClipBasic: the fast model in one pass; ClipPro: the strong model in two passes); without an
 * LLM, or when it fails, the offline ranker runs, and `rankedBy` says which ran and why.
 */
import type { VideoConfig } from "../../domain/video-config";
import type { Transcript } from "../transcription/transcript";
import { rankWithFastLlm } from "./llm/basic";
import type { LlmClient } from "./llm/client";
import { rankWithStrongLlm } from "./llm/pro";
import { rankOffline } from "./offline/rank-offline";
import { analyseTalk, type RankConfig } from "./offline/talk-analysis";
import type { AudioSignals } from "./offline/signals";
import type { RankedClip } from "./ranked-clip";

export interface RankOutcome {
	clips: RankedClip[];
	/** What really ranked: `ClipPro (llm: …)`, or the offline ranker and why. */
	rankedBy: string;
	/** Why there are fewer clips than usual (a prompt nothing matches), for the video record. */
	note: string | null;
}

export type MomentsConfig = RankConfig & Pick<VideoConfig, "clipModel" | "genre">;

export async function rankMoments(transcript: Transcript, config: MomentsConfig, signals: AudioSignals | null = null, llm: LlmClient | null = null): Promise<RankOutcome> {
	const offline = (why: string): RankOutcome => {
		const { clips, note } = rankOffline(transcript, config, signals);
		return { clips, note, rankedBy: `${config.clipModel} (offline ranker: ${why})` };
	};
	if (!llm) return offline("no LLM is configured");
	// split-clips cuts the frame into parts: no choice of moments for a model to make.
	if (config.clipType === "split-clips") return offline("split-clips needs no choice of moments");
	const talk = analyseTalk(transcript, config, signals);
	if (!talk) return offline("no speech in the time frame");
	try {
		const rank = config.clipModel === "ClipPro" ? rankWithStrongLlm : rankWithFastLlm;
		const clips = await rank(llm, talk, config.genre);
		const note = clips.length === 0 && talk.promptText ? "The model found no passage matching the prompt." : null;
		return { clips, note, rankedBy: `${config.clipModel} (${llm.name})` };
	} catch (error) {
		return offline(`fallback, ${llm.name} failed: ${(error as Error).message.slice(0, 160)}`);
	}
}
