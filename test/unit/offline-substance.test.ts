/**
 * Substance in real meetings (issue 25): the discussion that weighs options reads as substance.
 * Each case here failed before its change. (A digit reading was chatter by a rule fitted to ICSI's
 * recordings; issue 47 took it out, since it changed nothing on other families of talk.)
 */
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/worker/domain/video-config";
import { substanceLift } from "@clipforge/moments/ranking/offline/moments";
import { analyseTalk } from "@clipforge/moments/ranking/offline/talk-analysis";
import { barOf, MOMENT_BAR } from "@clipforge/moments/ranking/offline/virality";
import { DESIGN_MEETING, DISCUSSION_TURNS } from "../helpers/design-meeting";
import { GARDEN_EPISODE } from "../helpers/garden-episode";
import { spanOfTurns, transcriptOf } from "../helpers/talk";

const config = { ...defaultConfig(), clipDurationMin: 15, clipDurationMax: 60 };
const meeting = transcriptOf(DESIGN_MEETING);

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
