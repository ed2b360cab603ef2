/** What an LLM analysis of the moments hands rank-moments.ts (llm/partial.ts: how its calls may fail one by one). */
import type { RankedClip } from "../ranked-clip.ts";

/** What an analysis found, and what of the transcript it could not read. */
export interface LlmRanking {
	clips: RankedClip[];
	/** Time ranges (seconds) whose calls failed: no clip of the model comes from them. */
	missed: { start: number; end: number }[];
	/** "3 of 4 transcript parts answered (…)" when some calls failed, else null. */
	shortfall: string | null;
}
