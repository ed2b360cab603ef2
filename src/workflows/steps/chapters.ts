/**
 * Step "find chapters": the whole video's chapters and summary from the stored transcript, stored
 * as `chapters/{videoId}.json` (what GET /api/videos/:id/chapters serves, the exports and the
 * webhook read). Runs for every first run, `skipClipping` included, beside the ranking. A repeated
 * step writes the same key again.
 */
import type { VideoChapters } from "@clipforge/domain";
import { r2Keys } from "../../worker/services/r2-keys";
import { createLlm } from "../../worker/services/llm/client";
import type { Transcript } from "@clipforge/moments/text";
import { putJson, readJson, type VideoRun } from "./run";

export async function findChaptersStep(
	run: VideoRun,
	transcriptKey: string,
	options: { finalAttempt?: boolean } = {},
): Promise<{ chapters: number; madeBy: string }> {
	const transcript = await readJson<Transcript>(run, transcriptKey);
	// Loaded here, like the ranker: the English model is megabytes no API request needs.
	const { findChapters } = await import("@clipforge/moments/find-chapters");
	const { madeByDetail, ...found } = await findChapters(transcript, createLlm(run.env, "fast"), options);
	const stored: VideoChapters = found;
	await putJson(run, r2Keys.chapters(run.videoId), stored);
	return { chapters: stored.chapters.length, madeBy: madeByDetail };
}
