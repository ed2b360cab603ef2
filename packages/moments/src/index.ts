/**
 * @clipforge/moments: a long video's moments and chapters from its transcript, in pure TypeScript
 * with no I/O (the Worker, the bench and the tools call it; an LLM, when there is one, comes in
 * through `LlmClient`). The entry points; `@clipforge/moments/text` and `@clipforge/moments/llm`
 * are the light parts (no English model), every other file is reachable by its path
 * (`@clipforge/moments/ranking/offline/rank-offline`).
 */
export { rankMoments, type MomentsConfig, type RankOptions, type RankOutcome } from "./rank-moments.ts";
export { findChapters, type FoundChapters } from "./find-chapters.ts";
export { chaptersOffline } from "./chapters/offline/chapters-offline.ts";
export { rankOffline } from "./ranking/offline/rank-offline.ts";
export type { ClipHooks, RankedClip, ScoreBreakdown } from "./ranking/ranked-clip.ts";
export type { AudioSignals } from "./ranking/offline/signals.ts";
export type { Transcript } from "./text/transcript.ts";
export type { LlmClient } from "./llm/client.ts";
