import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/worker/domain/video-config";
import { rankOffline } from "@clipforge/moments/ranking/offline/rank-offline";
import { threeTopicTalk } from "../helpers/three-topics";

describe("split-clips follows the topics", () => {
	const { transcript, topicStarts } = threeTopicTalk();
	const split = (min: number, max: number) =>
		rankOffline(transcript, {
			...defaultConfig(),
			clipType: "split-clips",
			clipDurationMin: min,
			clipDurationMax: max,
		}).clips;

	it("a generated talk on three topics splits at their boundaries, every part within the range", () => {
		const parts = split(30, 90);
		for (const topicStart of topicStarts.slice(1))
			expect(
				parts.some((p) => Math.abs(p.start - topicStart) < 1.5),
				`a part starts at ${topicStart}`,
			).toBe(true);
		for (const [n, p] of parts.entries()) {
			expect(p.end - p.start).toBeGreaterThanOrEqual(30 - 1e-6);
			expect(p.end - p.start).toBeLessThanOrEqual(90 + 1e-6);
			if (n > 0) expect(p.start).toBeGreaterThanOrEqual(parts[n - 1]!.end - 1e-6);
		}
		// No part holds the end of one topic and the start of the next.
		for (const p of parts)
			for (const topicStart of topicStarts.slice(1))
				expect(p.start < topicStart - 2 && p.end > topicStart + 2).toBe(false);
	});

	it("each part is titled from its topic's chapter", () => {
		const parts = split(30, 90);
		const titleOf = (at: number) => parts.find((p) => p.start <= at && p.end > at)!.title;
		expect(titleOf(topicStarts[0] + 10)).toMatch(
			/^Part 1: .*(tomato|compost|soil|seedling|garden|watering|mulch|beds|roots)/i,
		);
		expect(titleOf(topicStarts[1] + 10)).toMatch(
			/(budget|savings|mortgage|interest|loan|pension|spending|bank|salary|debt)/i,
		);
		expect(titleOf(topicStarts[2] + 10)).toMatch(
			/(telescope|planet|galaxy|orbit|star|jupiter|moon|eyepiece|sky|comet)/i,
		);
		// Parts of one topic share its title.
		const sky = parts.filter((p) => p.start >= topicStarts[2] - 1);
		expect(new Set(sky.map((p) => p.title.replace(/^Part \d+: /, ""))).size).toBe(1);
	});

	it("when a topic's end does not fit the range, the part ends at the longest sentence end that does, as before", () => {
		// Parts of at most 20 s cannot wait for a topic change 200 s away: they fill the range.
		const parts = split(10, 20);
		expect(parts.slice(0, 5).every((p) => p.end - p.start > 15)).toBe(true);
	});
});
