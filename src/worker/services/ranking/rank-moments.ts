import type { VideoConfig } from "../../routes/videos/config.schema";
import type { Transcript } from "../transcription/transcript";
import { rankClipBasic, type RankedClip } from "./clip-basic";
import type { AudioSignals } from "./features";

export interface RankOutcome {
	clips: RankedClip[];
	/** The genre whose weights were used (inferred when the config says Auto). */
	genre: string;
	/** What really ranked: ClipPro requests fall back to ClipBasic, and the video records that. */
	rankedBy: string;
}

/**
 * Picks the moments of a video. ClipPro (LLM ranking through Workers AI) is not wired yet; a ClipPro
 * request is ranked by ClipBasic and says so in `rankedBy`, as the API contract's fallback rule asks.
 */
export async function rankMoments(transcript: Transcript, config: VideoConfig, signals: AudioSignals | null = null): Promise<RankOutcome> {
	const { clips, genre } = rankClipBasic(transcript, config, signals);
	const rankedBy = config.clipModel === "ClipPro" ? "ClipBasic (fallback: ClipPro unavailable)" : "ClipBasic";
	return { clips, rankedBy, genre };
}
