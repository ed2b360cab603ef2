import type { VideoConfig } from "../../domain/video-config";
import type { Transcript } from "../transcription/transcript";
import { rankClipBasic, type RankedClip } from "./clip-basic";
import { rankClipPro } from "./clip-pro";
import type { AudioSignals } from "./features";
import { inferGenre } from "./genres";
import type { LlmClient } from "./llm";

export interface RankOutcome {
	clips: RankedClip[];
	/** The genre whose weights were used (inferred when the config says Auto). */
	genre: string;
	/** What really ranked: ClipPro requests fall back to ClipBasic, and the video records that. */
	rankedBy: string;
}

/**
 * Picks the moments of a video with the model the config asks for. ClipPro needs an LLM (Workers AI
 * or an OpenAI-compatible endpoint); without one, or when it fails, ClipBasic ranks instead and
 * `rankedBy` says so and why.
 */
export async function rankMoments(transcript: Transcript, config: VideoConfig, signals: AudioSignals | null = null, llm: LlmClient | null = null): Promise<RankOutcome> {
	const basic = () => rankClipBasic(transcript, config, signals);
	if (config.clipModel !== "ClipPro") {
		const { clips, genre } = basic();
		return { clips, genre, rankedBy: "ClipBasic" };
	}
	if (!llm) {
		const { clips, genre } = basic();
		return { clips, genre, rankedBy: "ClipBasic (fallback: no LLM is configured)" };
	}
	try {
		const clips = await rankClipPro(llm, transcript, config, signals);
		const genre = config.genre === "Auto" ? inferGenre(transcript.text) : config.genre;
		return { clips, genre, rankedBy: `ClipPro (${llm.name})` };
	} catch (error) {
		const { clips, genre } = basic();
		return { clips, genre, rankedBy: `ClipBasic (fallback: ClipPro failed: ${(error as Error).message.slice(0, 160)})` };
	}
}
