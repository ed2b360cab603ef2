import { describe, expect, it, vi } from "vitest";
import { mergeChunkTranscripts, planAudioChunks, sentencesOf } from "../../src/worker/services/transcription/transcript";
import { WHISPER_MODEL, whisperTranscribe } from "../../src/worker/services/transcription/workers-ai";

describe("planAudioChunks", () => {
	it("cuts the frame into chunks that overlap by 2 s", () => {
		expect(planAudioChunks(0, 1250, 600)).toEqual([
			{ index: 0, start: 0, duration: 602 },
			{ index: 1, start: 600, duration: 602 },
			{ index: 2, start: 1200, duration: 50 },
		]);
		expect(planAudioChunks(0, 45.5, 600)).toEqual([{ index: 0, start: 0, duration: 45.5 }]);
	});
});

describe("mergeChunkTranscripts", () => {
	it("keeps each seam word once: the chunk whose half of the overlap holds it wins", () => {
		// Chunk 0 covers 0..12, chunk 1 starts at 10 (overlap 10..12, seam at 11).
		const w = (word: string, start: number) => ({ word, start, end: start + 0.4 });
		const merged = mergeChunkTranscripts(
			[
				{ plan: { index: 0, start: 0, duration: 12 }, result: { language: "en", segments: [{ start: 9, end: 11.9, text: "", words: [w("alpha", 9), w("beta", 10.2), w("gamma", 11.4)] }] } },
				{ plan: { index: 1, start: 10, duration: 12 }, result: { language: "en", segments: [{ start: 0.2, end: 3, text: "", words: [w("beta", 0.2), w("gamma", 1.4), w("delta", 2.6)] }] } },
			],
			22,
		);
		expect(merged.words.map((x) => [x.word, x.start])).toEqual([["alpha", 9], ["beta", 10.2], ["gamma", 11.4], ["delta", 12.6]]);
		expect(merged.text).toBe("alpha beta gamma delta");
	});
});

describe("sentencesOf", () => {
	it("splits at punctuation and at long pauses", () => {
		const words = [
			{ word: "Hello", start: 0, end: 0.3 },
			{ word: "there.", start: 0.35, end: 0.6 },
			{ word: "no", start: 0.7, end: 0.9 },
			{ word: "punctuation", start: 1.0, end: 1.5 },
			{ word: "after", start: 2.4, end: 2.7 },
			{ word: "pause", start: 2.8, end: 3.1 },
		];
		const sentences = sentencesOf({ segments: [{ start: 0, end: 3.1, text: "", words }] });
		expect(sentences.map((s) => s.text)).toEqual(["Hello there.", "no punctuation", "after pause"]);
	});
});

describe("workers-ai transcriber (Whisper large-v3-turbo)", () => {
	// Shaped as Cloudflare documents the model's output.
	const documentedOutput = {
		transcription_info: { language: "es", language_probability: 0.98, duration: 4.2, duration_after_vad: 4.0 },
		text: "Hola a todos. Bienvenidos.",
		word_count: 4,
		segments: [
			{ start: 0.0, end: 1.5, text: " Hola a todos.", avg_logprob: -0.2, compression_ratio: 1.1, no_speech_prob: 0.01, words: [{ word: " Hola", start: 0.0, end: 0.4 }, { word: " a", start: 0.45, end: 0.5 }, { word: " todos.", start: 0.55, end: 1.5 }] },
			{ start: 2.0, end: 3.1, text: " Bienvenidos.", avg_logprob: -0.3, compression_ratio: 1.0, no_speech_prob: 0.02, words: [{ word: " Bienvenidos.", start: 2.0, end: 3.1 }] },
		],
		vtt: "WEBVTT\n\n00:00.000 --> 00:01.500\nHola a todos.",
	};

	it("sends base64 audio to the model and keeps segments, trimmed words and the detected language", async () => {
		const ai = { run: vi.fn().mockResolvedValue(documentedOutput) };
		const result = await whisperTranscribe(ai, new Uint8Array([1, 2, 3]), null);
		expect(ai.run).toHaveBeenCalledWith(WHISPER_MODEL, { audio: "AQID", task: "transcribe", vad_filter: true });
		expect(result.language).toBe("es");
		expect(result.segments.map((s) => s.text)).toEqual(["Hola a todos.", "Bienvenidos."]);
		expect(result.segments[0]!.words[0]).toEqual({ word: "Hola", start: 0, end: 0.4 });
	});

	it("forces the configured language", async () => {
		const ai = { run: vi.fn().mockResolvedValue(documentedOutput) };
		await whisperTranscribe(ai, new Uint8Array([0]), "hi");
		expect(ai.run.mock.calls[0]![1]).toMatchObject({ language: "hi" });
	});

	it("rejects output that does not have the documented shape", async () => {
		const ai = { run: vi.fn().mockResolvedValue({ segments: [{ start: "zero" }] }) };
		await expect(whisperTranscribe(ai, new Uint8Array([0]), null)).rejects.toThrow();
	});
});
