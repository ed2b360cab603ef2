/**
 * Whisper large-v3-turbo on Workers AI. Input `{ audio: base64, task, language?, vad_filter }`;
 * output `{ transcription_info: { language, … }, text, segments: [{ start, end, text, words: [{ word, start, end }] }] }`
 * (Cloudflare's documented shape; see shared notes WORKERS-AI.md).
 */
import type { Segment, TranscribeResult } from "@clipforge/contract";
import { z } from "zod";
import type { AiRunner } from "../llm/ai-binding";
import { base64Encode } from "../crypto";

/** Checked against the generated catalogue (worker-configuration.d.ts), like the LLMs' ids. */
export const WHISPER_MODEL = "@cf/openai/whisper-large-v3-turbo" satisfies keyof AiModels;

const WhisperOutput = z
	.object({
		transcription_info: z.object({ language: z.string().optional() }).passthrough().optional(),
		text: z.string().optional(),
		segments: z
			.array(
				z
					.object({
						start: z.number(),
						end: z.number(),
						text: z.string(),
						words: z.array(z.object({ word: z.string(), start: z.number(), end: z.number() })).optional(),
					})
					.passthrough(),
			)
			.default([]),
	})
	.passthrough();

export type { AiRunner };

export async function whisperTranscribe(
	ai: AiRunner | Ai,
	audio: Uint8Array,
	language: string | null,
): Promise<TranscribeResult> {
	const input = {
		audio: base64Encode(audio),
		task: "transcribe",
		vad_filter: true,
		...(language ? { language } : {}),
	} satisfies AiModels[typeof WHISPER_MODEL]["inputs"];
	let raw: unknown;
	try {
		raw = await (ai as AiRunner).run(WHISPER_MODEL, input);
	} catch (error) {
		throw new Error(`Workers AI (Whisper) failed: ${(error as Error).message}`);
	}
	const parsed = WhisperOutput.safeParse(raw);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		throw new Error(
			`Workers AI (Whisper) answered in an unexpected shape (${issue?.path.join(".") || "root"}: ${issue?.message}).`,
		);
	}
	const output = parsed.data;
	const segments: Segment[] = output.segments.map((segment) => {
		const words = (segment.words ?? [])
			.map((w) => ({ word: w.word.trim(), start: w.start, end: w.end }))
			.filter((w) => w.word.length > 0);
		return { start: segment.start, end: segment.end, text: segment.text.trim(), words };
	});
	return { language: language ?? output.transcription_info?.language ?? "en", segments };
}
