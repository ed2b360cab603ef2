/**
 * Substance over chatter in real meetings (issue 25): a meeting's bookkeeping is chatter, and the
 * discussion that weighs options reads as substance. Each case here failed before its change.
 */
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/worker/domain/video-config";
import { substanceLift } from "@clipforge/moments/ranking/offline/moments";
import { rankOffline } from "@clipforge/moments/ranking/offline/rank-offline";
import { analyseTalk } from "@clipforge/moments/ranking/offline/talk-analysis";
import { barOf, MOMENT_BAR } from "@clipforge/moments/ranking/offline/virality";
import { unitsOf } from "@clipforge/moments/text/units";
import { DESIGN_MEETING, DISCUSSION_TURNS } from "../helpers/design-meeting";
import { GARDEN_EPISODE } from "../helpers/garden-episode";
import { spanOfTurns, transcriptOf, type Turn } from "../helpers/talk";

const config = { ...defaultConfig(), clipDurationMin: 15, clipDurationMax: 60 };
const meeting = transcriptOf(DESIGN_MEETING);

describe("a meeting's bookkeeping is chatter", () => {
	it("reads out numbers for the recording as chatter, whole", () => {
		const units = unitsOf(
			transcriptOf([
				["A", "Transcript one three one one dash one three three zero."],
				[
					"A",
					"Three two three four seven six five five three one six two four one six seven seven eight nine.",
				],
				["B", "So it was forty milliseconds plus the rank ordering, another ten frames."],
			]),
		);
		expect(units.slice(0, 2).map((u) => u.chatterShare)).toEqual([1, 1]);
		// Numbers said in passing are not a reading.
		expect(units[2]!.chatter).toBe(0);
	});

	it("never puts a digit reading in a clip, however many numbers it holds", () => {
		const digits = Array.from({ length: 6 }, (_, k): Turn => [
			"A",
			`${["Four", "Nine", "Two", "Seven", "One", "Eight"][k]} three two six eight zero three six two four three zero seven four five zero six.`,
		]);
		const turns: Turn[] = [
			...GARDEN_EPISODE.slice(0, 20),
			["A", "Okay, let's read our digits before we go."],
			...digits,
		];
		const talk = transcriptOf(turns);
		const reading = spanOfTurns(talk, 21, 26);
		for (const clip of rankOffline(talk, config).clips)
			expect(Math.min(clip.end, reading.end) - Math.max(clip.start, reading.start)).toBeLessThanOrEqual(0);
	});
});

describe("substance in ordinary talk", () => {
	const talk = analyseTalk(meeting, config, null)!;
	const { units, reading } = talk;
	const discussion = spanOfTurns(meeting, ...DISCUSSION_TURNS);
	const inside = (k: number) => units[k]!.start >= discussion.start - 0.01 && units[k]!.end <= discussion.end + 0.01;
	const meanOver = (values: number[], keep: (k: number) => boolean) => {
		const picked = values.filter((_, k) => keep(k));
		return picked.reduce((a, b) => a + b, 0) / picked.length;
	};

	it("reads the discussion that weighs options as substance, above the small talk and the bookkeeping", () => {
		expect(meanOver(reading.substance, inside)).toBeGreaterThan(0.6);
		expect(meanOver(reading.substance, inside)).toBeGreaterThan(
			meanOver(reading.substance, (k) => units[k]!.end < discussion.start) + 0.2,
		);
	});

	it("moves the worth of talk that is not a moment, never as far as a moment", () => {
		reading.worth.forEach((worth, k) => {
			const p = reading.moment[k]!;
			expect(worth - p).toBeCloseTo((1 - p) * substanceLift(reading.substance[k]!), 9);
		});
		expect(substanceLift(1)).toBeLessThanOrEqual(0.3);
		expect(substanceLift(0)).toBeGreaterThanOrEqual(-0.3);
	});

	it("sets the bar in talk without moments at what its best fifth is worth, so passages there grow by what they carry", () => {
		expect(barOf(talk)).toBeLessThan(MOMENT_BAR);
		// Talk with real moments keeps the bar.
		expect(barOf(analyseTalk(transcriptOf(GARDEN_EPISODE), config, null)!)).toBe(MOMENT_BAR);
	});
});
