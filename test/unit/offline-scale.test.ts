/**
 * Any length (issue "Clips a person would post"): every transcript up to the plan maximum, with any
 * allowed duration range, ranks without RangeError and never builds every candidate passage.
 * Speed and heap are measured by `npm run bench:quality` (3 h at 5-600 s in a 64 MB heap).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/worker/domain/video-config";
import { rankOffline } from "@clipforge/moments/ranking/offline/rank-offline";
import { analyseTalk } from "@clipforge/moments/ranking/offline/talk-analysis";
import { GARDEN_EPISODE } from "../helpers/garden-episode";
import { longTranscriptOf } from "../helpers/talk";

const hours3 = longTranscriptOf(GARDEN_EPISODE, 180);

describe("long transcripts", () => {
	it("rank 3 hours at 5-600 s with a prompt (Math.max over every passage threw RangeError)", () => {
		const outcome = rankOffline(hours3, {
			...defaultConfig(),
			clipDurationMin: 5,
			clipDurationMax: 600,
			customPrompt: "the fig tree in the bucket",
		});
		expect(outcome.clips.length).toBeGreaterThan(0);
		for (const c of outcome.clips) expect(c.end - c.start).toBeLessThanOrEqual(600 + 1e-6);
	}, 60_000);

	it("walk the candidate passages of 3 hours at 5-600 s without holding them (there are hundreds of thousands)", () => {
		const talk = analyseTalk(hours3, { ...defaultConfig(), clipDurationMin: 5, clipDurationMax: 600 }, null)!;
		expect(Array.isArray(talk.spans)).toBe(false);
		let count = 0;
		talk.spans.visit(() => count++);
		expect(count).toBeGreaterThan(100_000);
	}, 60_000);

	it("hold the duration range for any transcript length and range, with or without a prompt (property)", () => {
		const lengths = [1, 12, 45, 180];
		const transcripts = new Map(lengths.map((m) => [m, longTranscriptOf(GARDEN_EPISODE, m, { plain: m === 45 })]));
		fc.assert(
			fc.property(
				fc.constantFrom(...lengths),
				fc.integer({ min: 5, max: 120 }),
				fc.integer({ min: 0, max: 480 }),
				fc.boolean(),
				(minutes, min, extra, withPrompt) => {
					const transcript = transcripts.get(minutes)!;
					const max = Math.min(600, min + extra);
					const { clips } = rankOffline(transcript, {
						...defaultConfig(),
						clipDurationMin: min,
						clipDurationMax: max,
						customPrompt: withPrompt ? "the compost bin" : null,
					});
					const speech =
						transcript.segments[transcript.segments.length - 1]!.end - transcript.segments[0]!.start;
					for (const c of clips) {
						expect(c.end - c.start).toBeLessThanOrEqual(max + 1e-6);
						if (speech > min + 5) expect(c.end - c.start).toBeGreaterThanOrEqual(min - 1e-6);
						expect(c.start).toBeGreaterThanOrEqual(0);
						expect(c.end).toBeLessThanOrEqual(transcript.duration + 1e-6);
					}
				},
			),
			{ numRuns: 8, seed: 25 },
		);
	}, 120_000);
});
