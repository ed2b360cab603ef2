/**
 * How many Workers AI requests one video makes, counted by running the real code: the chunks the
 * transcription cuts (planAudioChunks with wrangler.toml's AUDIO_CHUNK_SECONDS: one Whisper request
 * each), and the LLM calls of the ranking (ClipBasic's or ClipPro's path) and of the chapters, with
 * an instant stand-in model that answers every prompt at once (tools/quality/instant-model.ts).
 * A retry is another request; these are the calls when none is needed.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { defaultConfig } from "../../src/worker/domain/video-config.ts";
import { findChapters, rankMoments } from "@clipforge/moments";
import { planAudioChunks } from "../../src/worker/services/transcription/transcript.ts";
import { wranglerVars } from "../../scripts/wrangler-vars.ts";
import { longTranscript } from "../bench-rank-step.ts";
import { instantModel } from "../quality/instant-model.ts";

export interface ModelCalls {
	minutes: number;
	/** One Whisper request per audio chunk. */
	whisper: number;
	/** The ranking's LLM calls, by path. */
	rank: { ClipBasic: number; ClipPro: number };
	/** The chapters' LLM calls (parts of the transcript, then the summary), every first run. */
	chapters: number;
}

export function productionChunkSeconds(): number {
	const toml = readFileSync(join(import.meta.dirname, "..", "..", "wrangler.toml"), "utf8");
	return Number(wranglerVars(toml).AUDIO_CHUNK_SECONDS);
}

export async function modelCallsOf(minutes: number): Promise<ModelCalls> {
	const seconds = minutes * 60;
	const transcript = longTranscript(seconds);
	const rank = { ClipBasic: 0, ClipPro: 0 };
	for (const clipModel of ["ClipBasic", "ClipPro"] as const) {
		const llm = instantModel();
		await rankMoments(transcript, { ...defaultConfig(), clipModel }, null, llm);
		rank[clipModel] = llm.calls;
	}
	const chaptersLlm = instantModel();
	const found = await findChapters(transcript, chaptersLlm);
	if (found.madeByDetail !== chaptersLlm.name)
		throw new Error(`model-calls: the chapters did not come from the model: ${found.madeByDetail}`);
	return {
		minutes,
		whisper: planAudioChunks(0, seconds, productionChunkSeconds()).length,
		rank,
		chapters: chaptersLlm.calls,
	};
}
