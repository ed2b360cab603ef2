import { describe, expect, it, vi } from "vitest";
import { defaultConfig } from "../../src/worker/domain/video-config";
import { parseAnswer } from "../../src/worker/services/ranking/clip-pro";
import { openAiCompatibleLlm, workersAiLlm, type LlmClient } from "../../src/worker/services/ranking/llm";
import { rankMoments } from "../../src/worker/services/ranking/rank-moments";
import { mergeChunkTranscripts, sentencesOf } from "../../src/worker/services/transcription/transcript";
import { scriptSegments } from "../helpers/fake-render-tier";

const talk = (seconds: number) => mergeChunkTranscripts([{ plan: { index: 0, start: 0, duration: seconds }, result: { language: "en", segments: scriptSegments(0, seconds) } }], seconds);
const config = { ...defaultConfig(), clipModel: "ClipPro" as const, clipDurationMin: 10, clipDurationMax: 30 };

/** An LLM stub that answers from a list (one answer per call) and records the calls. */
function stubLlm(...answers: unknown[]): LlmClient & { calls: unknown[][] } {
	const calls: unknown[][] = [];
	return {
		name: "stub",
		calls,
		async complete(messages) {
			calls.push(messages);
			const answer = answers[Math.min(calls.length - 1, answers.length - 1)];
			if (answer instanceof Error) throw answer;
			return answer;
		},
	};
}

const moment = (start: number, end: number, score = 88) => ({ start, end, title: `Moment at ${start}`, hookTitle: "You won't believe this", score, reason: "A question with a surprising answer." });

describe("ClipPro", () => {
	it("keeps the model's moments, titles and reasons, snapped to whole sentences inside the range", async () => {
		const transcript = talk(120);
		const llm = stubLlm({ clips: [moment(7.1, 27.9, 91), moment(40.2, 58, 75)] });
		const outcome = await rankMoments(transcript, config, null, llm);
		expect(outcome.rankedBy).toBe("ClipPro (stub)");
		expect(outcome.clips).toHaveLength(2);
		const sentences = sentencesOf(transcript);
		for (const clip of outcome.clips) {
			// Cut 0.2 s before a sentence's first word and 0.4 s after its last (as ClipBasic does).
			expect(sentences.some((s) => clip.start <= s.start && clip.start >= s.start - 0.21)).toBe(true);
			expect(sentences.some((s) => Math.abs(clip.end - (s.end + 0.4)) < 0.011)).toBe(true);
			expect(clip.end - clip.start).toBeGreaterThanOrEqual(10);
			expect(clip.end - clip.start).toBeLessThanOrEqual(30);
			expect(clip.hookTitle).toBe("You won't believe this");
			expect(clip.viralityReason).toBe("A question with a surprising answer.");
			expect(clip.scoreBreakdown.hook).toBeGreaterThanOrEqual(0);
		}
		expect(outcome.clips[0]!.score).toBe(91);
		// The prompt carries timestamps, the duration range and the custom prompt when there is one.
		const prompt = JSON.stringify(llm.calls[0]);
		expect(prompt).toMatch(/\[0\.0-/);
		expect(prompt).toContain("between 10 and 30 seconds");
	});

	it("reads JSON in code fences, and repairs a truncated answer after its last complete clip", async () => {
		expect(parseAnswer('```json\n{"clips": [' + JSON.stringify(moment(1, 20)) + "]}\n```")).toMatchObject({ ok: true, clips: [{ start: 1 }] });
		const truncated = `{"clips": [${JSON.stringify(moment(1, 20))}, ${JSON.stringify(moment(30, 50))}, {"start": 60, "end": 7`;
		const repaired = parseAnswer(truncated);
		expect(repaired.ok && repaired.clips.map((c) => c.start)).toEqual([1, 30]);
		expect(parseAnswer("I think the best moment is at 3:20")).toEqual({ ok: false, error: "not JSON" });
		// Individually invalid clips are dropped, valid ones kept.
		const mixed = parseAnswer({ clips: [{ ...moment(1, 20), score: "high" }, moment(30, 50)] });
		expect(mixed.ok && mixed.clips).toHaveLength(1);
	});

	it("asks once more, with the error, when the answer is not valid; then uses the corrected answer", async () => {
		const llm = stubLlm("Sure! Here are your clips: none", { clips: [moment(7, 27)] });
		const outcome = await rankMoments(talk(90), config, null, llm);
		expect(llm.calls).toHaveLength(2);
		expect(JSON.stringify(llm.calls[1])).toContain("not valid (not JSON)");
		expect(outcome.rankedBy).toBe("ClipPro (stub)");
	});

	it("falls back to ClipBasic, saying why, when the model keeps failing or the provider errors", async () => {
		const garbage = await rankMoments(talk(90), config, null, stubLlm({ answer: 42 }, { answer: 43 }));
		expect(garbage.rankedBy).toMatch(/^ClipBasic \(fallback: ClipPro failed: .*no "clips" array/);
		expect(garbage.clips.length).toBeGreaterThan(0);
		const down = await rankMoments(talk(90), config, null, stubLlm(new Error("AI binding: 503 capacity")));
		expect(down.rankedBy).toMatch(/fallback: ClipPro failed: AI binding: 503 capacity/);
		const none = await rankMoments(talk(90), config, null, null);
		expect(none.rankedBy).toBe("ClipBasic (fallback: no LLM is configured)");
	});

	it("drops impossible proposals, fits long ones to the range, and removes overlaps", async () => {
		const llm = stubLlm({ clips: [moment(500, 520, 99), moment(5, 200, 80), moment(6, 20, 70), moment(60, 61, 60)] });
		const outcome = await rankMoments(talk(100), config, null, llm);
		for (const clip of outcome.clips) expect(clip.end - clip.start).toBeLessThanOrEqual(30);
		const sorted = [...outcome.clips].sort((a, b) => a.start - b.start);
		sorted.forEach((c, i) => i > 0 && expect(c.start).toBeGreaterThanOrEqual(sorted[i - 1]!.end));
		expect(outcome.clips.every((c) => c.start < 100)).toBe(true);
	});

	it("reads a long video in chunks of about 15 minutes", async () => {
		const llm = stubLlm({ clips: [moment(7, 27)] });
		await rankMoments(talk(45 * 60), config, null, llm);
		expect(llm.calls).toHaveLength(3);
	});
});

describe("LLM clients", () => {
	it("Workers AI: messages and a JSON schema response_format; the answer is output.response", async () => {
		const ai = { run: vi.fn().mockResolvedValue({ response: { clips: [] }, usage: { prompt_tokens: 10 } }) };
		const llm = workersAiLlm(ai, "@cf/meta/llama-3.3-70b-instruct-fp8-fast");
		expect(await llm.complete([{ role: "user", content: "hi" }], { name: "x", schema: { type: "object" } })).toEqual({ clips: [] });
		expect(ai.run.mock.calls[0]![0]).toBe("@cf/meta/llama-3.3-70b-instruct-fp8-fast");
		expect(ai.run.mock.calls[0]![1]).toMatchObject({ messages: [{ role: "user", content: "hi" }], response_format: { type: "json_schema", json_schema: { type: "object" } } });
	});

	it("OpenAI-compatible: POST /chat/completions with a bearer key; the answer is choices[0].message.content", async () => {
		const fetchStub = vi.fn(async () => Response.json({ choices: [{ message: { content: '{"clips": []}' } }] }));
		const llm = openAiCompatibleLlm("https://llm.example.com/v1/", "sk-test", "gpt-test", fetchStub as unknown as typeof fetch);
		expect(await llm.complete([{ role: "user", content: "hi" }], { name: "clip_moments", schema: { type: "object" } })).toBe('{"clips": []}');
		const [url, init] = fetchStub.mock.calls[0] as unknown as [string, RequestInit];
		expect(url).toBe("https://llm.example.com/v1/chat/completions");
		expect((init.headers as Record<string, string>).authorization).toBe("Bearer sk-test");
		expect(JSON.parse(init.body as string)).toMatchObject({ model: "gpt-test", response_format: { type: "json_schema", json_schema: { name: "clip_moments" } } });
	});
});
