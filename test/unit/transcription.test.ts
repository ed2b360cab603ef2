import { describe, expect, it, vi } from "vitest";
import { mergeChunkTranscripts, planAudioChunks } from "../../src/worker/services/transcription/transcript";
import { sentencesOf } from "@clipforge/moments/text";
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

	it("adds no sliver chunk for a tail the previous chunk's overlap already covers", () => {
		// A "10 minute" file probed at 600.064 s once gave a 0.064 s second chunk: an MP3 with no audio.
		expect(planAudioChunks(0, 600.064, 600)).toEqual([{ index: 0, start: 0, duration: 600.064 }]);
		expect(planAudioChunks(0, 1201.5, 600)).toEqual([
			{ index: 0, start: 0, duration: 602 },
			{ index: 1, start: 600, duration: 601.5 },
		]);
		expect(planAudioChunks(0, 1205, 600).map((c) => c.duration)).toEqual([602, 602, 5]);
	});
});

describe("mergeChunkTranscripts", () => {
	it("keeps each seam word once: the chunk whose half of the overlap holds it wins", () => {
		// Chunk 0 covers 0..12, chunk 1 starts at 10 (overlap 10..12, seam at 11).
		const w = (word: string, start: number) => ({ word, start, end: start + 0.4 });
		const merged = mergeChunkTranscripts(
			[
				{
					plan: { index: 0, start: 0, duration: 12 },
					result: {
						language: "en",
						segments: [
							{
								start: 9,
								end: 11.9,
								text: "",
								words: [w("alpha", 9), w("beta", 10.2), w("gamma", 11.4)],
							},
						],
					},
				},
				{
					plan: { index: 1, start: 10, duration: 12 },
					result: {
						language: "en",
						segments: [
							{ start: 0.2, end: 3, text: "", words: [w("beta", 0.2), w("gamma", 1.4), w("delta", 2.6)] },
						],
					},
				},
			],
			22,
		);
		expect(merged.words.map((x) => [x.word, x.start])).toEqual([
			["alpha", 9],
			["beta", 10.2],
			["gamma", 11.4],
			["delta", 12.6],
		]);
		expect(merged.text).toBe("alpha beta gamma delta");
	});

	it("makes a sentence the seam cut one segment again, and leaves the segments the seam did not cut apart", () => {
		// Chunk 0 covers 0..12, chunk 1 starts at 10 (seam at 11): each hears the sentence that crosses the seam in part.
		const w = (word: string, start: number) => ({ word, start, end: start + 0.4 });
		const segment = (words: { word: string; start: number; end: number }[]) => ({
			start: words[0]!.start,
			end: words.at(-1)!.end,
			text: "",
			words,
		});
		const merged = mergeChunkTranscripts(
			[
				{
					plan: { index: 0, start: 0, duration: 12 },
					result: {
						language: "en",
						segments: [
							segment([w("First", 7), w("one.", 7.5)]),
							segment([w("Why", 10.4), w("does", 10.9), w("this", 11.4)]),
						],
					},
				},
				{
					plan: { index: 1, start: 10, duration: 12 },
					result: {
						language: "en",
						segments: [
							segment([w("Why", 0.4), w("does", 0.9), w("this", 1.4), w("work?", 1.9)]),
							segment([w("Because.", 3)]),
						],
					},
				},
			],
			22,
		);
		expect(merged.segments.map((s) => s.text)).toEqual(["First one.", "Why does this work?", "Because."]);
		expect(sentencesOf(merged).map((s) => s.text)).toEqual(["First one.", "Why does this work?", "Because."]);
	});
});

describe("sentencesOf", () => {
	const w = (word: string, start: number) => ({ word, start, end: start + 0.3 });

	it("without punctuation (the local engine), splits at pauses of 0.6 s or more", () => {
		const words = [w("hello", 0), w("there", 0.35), w("no", 1.5), w("punctuation", 1.85), w("here", 2.2)];
		expect(sentencesOf({ segments: [{ start: 0, end: 2.5, text: "", words }] }).map((s) => s.text)).toEqual([
			"hello there",
			"no punctuation here",
		]);
	});

	it("with punctuation (Whisper), splits at sentence ends, not at a breath after a comma; a long silence still ends one", () => {
		const words = [
			w("Hello,", 0),
			w("well,", 1.4),
			w("there.", 1.8),
			w("Next", 2.2),
			w("one", 2.6),
			w("after", 5.5),
			w("silence.", 5.9),
		];
		expect(sentencesOf({ segments: [{ start: 0, end: 6.2, text: "", words }] }).map((s) => s.text)).toEqual([
			"Hello, well, there.",
			"Next one",
			"after silence.",
		]);
	});

	it("does not end a sentence at a title's stop ('Mr. Okafor's window')", () => {
		const said =
			"When I was eight I kicked a football through Mr. Okafor's kitchen window. Dr. Patel saw it.".split(" ");
		const words = said.map((word, k) => w(word, k * 0.35));
		expect(sentencesOf({ segments: [{ start: 0, end: 6, text: "", words }] }).map((s) => s.text)).toEqual([
			"When I was eight I kicked a football through Mr. Okafor's kitchen window.",
			"Dr. Patel saw it.",
		]);
	});
});

describe("workers-ai transcriber (Whisper large-v3-turbo)", () => {
	// Shaped as Cloudflare documents the model's output.
	const documentedOutput = {
		transcription_info: { language: "es", language_probability: 0.98, duration: 4.2, duration_after_vad: 4.0 },
		text: "Hola a todos. Bienvenidos.",
		word_count: 4,
		segments: [
			{
				start: 0.0,
				end: 1.5,
				text: " Hola a todos.",
				avg_logprob: -0.2,
				compression_ratio: 1.1,
				no_speech_prob: 0.01,
				words: [
					{ word: " Hola", start: 0.0, end: 0.4 },
					{ word: " a", start: 0.45, end: 0.5 },
					{ word: " todos.", start: 0.55, end: 1.5 },
				],
			},
			{
				start: 2.0,
				end: 3.1,
				text: " Bienvenidos.",
				avg_logprob: -0.3,
				compression_ratio: 1.0,
				no_speech_prob: 0.02,
				words: [{ word: " Bienvenidos.", start: 2.0, end: 3.1 }],
			},
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

describe("workers-ai transcriber end to end (stub binding, real R2)", () => {
	it("reads each chunk from R2, forces the language when set, and merges Whisper's punctuated words across the seam once", async () => {
		const { env } = await import("cloudflare:workers");
		const { createTranscriber } = await import("../../src/worker/services/transcription/transcriber");
		await env.MEDIA.put("audio/wai/chunk-0.mp3", new Uint8Array([1, 2, 3]));
		await env.MEDIA.put("audio/wai/chunk-1.mp3", new Uint8Array([4, 5, 6]));
		// Chunk 0 covers 0..12 s, chunk 1 starts at 10 s: "world." sits in the 10-12 s overlap of both.
		const outputs = [
			{
				transcription_info: { language: "en" },
				segments: [
					{
						start: 8,
						end: 11.5,
						text: " Hello, world.",
						words: [
							{ word: " Hello,", start: 8.5, end: 9.2 },
							{ word: " world.", start: 10.6, end: 11.2 },
						],
					},
				],
			},
			{
				transcription_info: { language: "en" },
				segments: [
					{
						start: 0.5,
						end: 3,
						text: " world. Next one.",
						words: [
							{ word: " world.", start: 0.6, end: 1.2 },
							{ word: " Next", start: 1.8, end: 2.1 },
							{ word: " one.", start: 2.2, end: 2.6 },
						],
					},
				],
			},
		];
		const ai = { run: vi.fn(async () => outputs.shift()) };
		const transcriber = createTranscriber({ ...env, TRANSCRIBER: "workers-ai", AI: ai as unknown as Ai });
		const parts = [];
		for (const [index, start] of [
			[0, 0],
			[1, 10],
		] as const) {
			parts.push({
				plan: { index, start, duration: 12 },
				result: await transcriber.transcribeChunk(
					{ videoId: "wai", key: `audio/wai/chunk-${index}.mp3` },
					"en",
				),
			});
		}
		expect(ai.run).toHaveBeenCalledTimes(2);
		expect((ai.run.mock.calls[0] as unknown[])[1]).toMatchObject({ audio: "AQID", language: "en" });
		const merged = mergeChunkTranscripts(parts, 22);
		expect(merged.words.map((w) => w.word)).toEqual(["Hello,", "world.", "Next", "one."]);
		expect(sentencesOf(merged).map((s) => s.text)).toEqual(["Hello, world.", "Next one."]);
	});

	it("a chunk missing from R2 is an error naming it (the step retries, then fails with it)", async () => {
		const { env } = await import("cloudflare:workers");
		const { createTranscriber } = await import("../../src/worker/services/transcription/transcriber");
		const transcriber = createTranscriber({
			...env,
			TRANSCRIBER: "workers-ai",
			AI: { run: vi.fn() } as unknown as Ai,
		});
		await expect(transcriber.transcribeChunk({ videoId: "x", key: "audio/x/chunk-9.mp3" }, null)).rejects.toThrow(
			"Audio chunk audio/x/chunk-9.mp3 is missing.",
		);
	});
});
