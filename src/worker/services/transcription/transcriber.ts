/**
 * How speech becomes words. `local`: pocketsphinx in the render tier (offline, English, rough);
 * `workers-ai`: Whisper large-v3-turbo through the AI binding (production). Chosen by TRANSCRIBER.
 */
import type { TranscribeResult } from "@clipforge/contract";
import { aiBindingOf } from "../llm/ai-binding";
import { settingsOf } from "../../settings";
import { createRenderClient } from "../render-client";
import { renderInstance } from "../render-instances";
import { signInternalObjectUrl } from "../signing";
import { whisperTranscribe } from "./workers-ai";
import { writtenSegments } from "./written-segments";

export interface AudioChunkRef {
	videoId: string;
	/** The tier shares its cores fairly between workspaces, then between their videos. */
	workspaceId?: string;
	/** R2 key of the chunk's audio (16 kHz mono MP3). */
	key: string;
}

export interface Transcriber {
	readonly name: "local" | "workers-ai";
	/** `onProgress` (0..1 through the chunk) is called when the engine can tell. */
	transcribeChunk(
		chunk: AudioChunkRef,
		language: string | null,
		onProgress?: (fraction: number) => Promise<void>,
	): Promise<TranscribeResult>;
}

export function createTranscriber(env: Env): Transcriber {
	if (settingsOf(env).transcriber === "workers-ai") {
		const ai = aiBindingOf(env);
		if (!ai) throw new Error("TRANSCRIBER is workers-ai but no AI binding (or local AI_URL) is configured.");
		return {
			name: "workers-ai",
			async transcribeChunk(chunk, language) {
				const object = await env.MEDIA.get(chunk.key);
				if (!object) throw new Error(`Audio chunk ${chunk.key} is missing.`);
				return whisperTranscribe(ai, new Uint8Array(await object.arrayBuffer()), language);
			},
		};
	}
	return {
		name: "local",
		async transcribeChunk(chunk, language, onProgress) {
			const render = createRenderClient(env, renderInstance.video(env, chunk.videoId));
			const audioUrl = await signInternalObjectUrl(env, chunk.key, "GET");
			const heard = await render.run(
				"transcribe",
				{ audioUrl, language, videoId: chunk.videoId, workspaceId: chunk.workspaceId },
				{ onProgress },
			);
			// Captions, transcripts and exports show "I" and "Chicago", not the engine's lower case.
			return { ...heard, segments: writtenSegments(heard.segments) };
		},
	};
}
