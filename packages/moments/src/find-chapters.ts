/**
 * A video's chapters and summary. In production the configured LLM writes them (llm/); without
 * one, or when it fails, the offline segmentation runs (offline/), exactly as the ranker falls
 * back. When every call failed for reasons that pass (capacity, timeouts) and the workflow step has
 * attempts left, the error is thrown so the step is retried later; only its last attempt settles
 * for the offline chapters. Either way the chapters keep YouTube's rules, or there are none and
 * `note` says the video is too short.
 */
import type { VideoChapters } from "@clipforge/domain";
import type { LlmClient } from "./llm/client.ts";
import { LlmUnavailableError } from "./llm/errors.ts";
import { chapterUnitsOf } from "./chapters/offline/chapter-units.ts";
import type { Transcript } from "./text/transcript.ts";
import { chaptersWithLlm } from "./chapters/llm/chapters-from-llm.ts";
import { chaptersOfUnits } from "./chapters/offline/chapters-offline.ts";

export interface FoundChapters extends VideoChapters {
	/** Who made them and, for the offline chapters, why (no LLM, or the LLM's failure). */
	madeByDetail: string;
}

export async function findChapters(
	transcript: Pick<Transcript, "segments" | "duration"> & Partial<Pick<Transcript, "language">>,
	llm: LlmClient | null,
	options: { finalAttempt?: boolean } = {},
): Promise<FoundChapters> {
	const units = chapterUnitsOf(transcript);
	const language = transcript.language ?? "en";
	const offline = (why: string): FoundChapters => ({
		...chaptersOfUnits(units, transcript.duration, undefined, language),
		madeByDetail: `offline (${why})`,
	});
	if (!llm) return offline("no LLM is configured");
	if (units.length === 0) return offline("no speech");
	try {
		const written = await chaptersWithLlm(llm, units, transcript.duration, language);
		return written
			? { ...written, madeByDetail: llm.name }
			: offline(`${llm.name} proposed fewer than three chapters that fit`);
	} catch (error) {
		if (error instanceof LlmUnavailableError && options.finalAttempt === false) throw error;
		return offline(`fallback, ${llm.name} failed: ${(error as Error).message.slice(0, 160)}`);
	}
}
