import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/worker/routes/videos/config.schema";
import { hookStrength, rankClipBasic } from "../../src/worker/services/ranking/clip-basic";
import { mergeChunkTranscripts } from "../../src/worker/services/transcription/transcript";
import { scriptSegments } from "../helpers/fake-render-tier";

/** The sample talk as a transcript of `seconds` (word timings as the fake tier gives them). */
function talk(seconds: number) {
	return mergeChunkTranscripts([{ plan: { index: 0, start: 0, duration: seconds }, result: { language: "en", segments: scriptSegments(0, seconds) } }], seconds);
}

describe("ClipBasic v0", () => {
	const config = { ...defaultConfig(), clipDurationMin: 15, clipDurationMax: 40 };

	it("returns sentence-snapped, non-overlapping windows inside the duration range", () => {
		const transcript = talk(300);
		const clips = rankClipBasic(transcript, config);
		expect(clips.length).toBeGreaterThanOrEqual(3);
		const starts = new Set(transcript.segments.map((s) => s.start));
		const ends = new Set(transcript.segments.map((s) => s.end));
		for (const clip of clips) {
			expect(clip.end - clip.start).toBeGreaterThanOrEqual(15 - 0.01);
			expect(clip.end - clip.start).toBeLessThanOrEqual(40 + 0.6);
			// Lead-in 0.2 s before a sentence start, tail 0.4 s after a sentence end.
			expect(starts.has(Math.round((clip.start + 0.2) * 1000) / 1000)).toBe(true);
			expect(ends.has(Math.round((clip.end - 0.4) * 1000) / 1000)).toBe(true);
			expect(clip.score).toBeGreaterThanOrEqual(0);
			expect(clip.score).toBeLessThanOrEqual(100);
			expect(Number.isInteger(clip.score)).toBe(true);
		}
		const sorted = [...clips].sort((a, b) => a.start - b.start);
		for (let i = 1; i < sorted.length; i++) expect(sorted[i]!.start).toBeGreaterThanOrEqual(sorted[i - 1]!.end);
	});

	it("is deterministic", () => {
		expect(rankClipBasic(talk(300), config)).toEqual(rankClipBasic(talk(300), config));
	});

	it("ranks the question-with-a-number hook above plain narration and says why", () => {
		const clips = rankClipBasic(talk(120), config);
		expect(clips[0]!.transcript.startsWith("Did you know that most people lose three hours")).toBe(true);
		expect(clips[0]!.viralityReason).toMatch(/hook/);
		expect(clips[0]!.viralityReason).toMatch(/question/);
		expect(clips[0]!.title).toBe("Did you know that most people lose three hours…");
		expect(hookStrength("Did you know that most people lose three hours every day?")).toBeGreaterThan(hookStrength("Welcome back to the show."));
	});

	it("stays inside the time frame", () => {
		const clips = rankClipBasic(talk(600), { ...config, timeframeStart: 120, timeframeEnd: 300 });
		expect(clips.length).toBeGreaterThan(0);
		for (const clip of clips) {
			expect(clip.start).toBeGreaterThanOrEqual(120);
			expect(clip.end).toBeLessThanOrEqual(300);
		}
	});

	it("raises windows that match the custom prompt", () => {
		const withPrompt = rankClipBasic(talk(180), { ...config, customPrompt: "morning light outside" });
		expect(withPrompt[0]!.transcript.toLowerCase()).toMatch(/light|outside/);
		expect(withPrompt[0]!.viralityReason).toMatch(/prompt/);
	});

	it("split-clips covers the frame with consecutive parts inside the range", () => {
		const transcript = talk(200);
		const parts = rankClipBasic(transcript, { ...config, clipType: "split-clips" });
		expect(parts.length).toBeGreaterThanOrEqual(4);
		parts.forEach((part, i) => {
			expect(part.title.startsWith(`Part ${i + 1}: `)).toBe(true);
			if (i > 0) expect(part.start).toBeGreaterThanOrEqual(parts[i - 1]!.end - 0.61);
			expect(part.end - part.start).toBeLessThanOrEqual(40 + 0.6);
		});
		const spoken = transcript.words.length;
		const covered = parts.reduce((n, p) => n + p.transcript.split(" ").length, 0);
		expect(covered).toBe(spoken);
	});

	it("gives one clip of all the speech when the frame is shorter than the minimum, none without speech", () => {
		expect(rankClipBasic(talk(12), config)).toHaveLength(1);
		expect(rankClipBasic({ language: "en", duration: 60, text: "", segments: [], words: [] }, config)).toEqual([]);
	});
});
