import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { FaceBox, FaceSample } from "../src/framing/smart-crop.ts";
import { positionAt } from "../src/framing/smart-crop.ts";
import { analyseSpeakers, MIN_HOLD_SECONDS, speakerCropPlan, stackedCrops } from "../src/framing/speakers.ts";
import type { ChannelEnergy } from "../src/framing/speech-energy.ts";

const FPS = 4;
const face = (centreX: number, motion: number, width = 0.1): FaceBox => ({
	x: centreX - width / 2,
	y: 0.3,
	width,
	height: width * 1.7,
	score: 0.9,
	motion,
});
/** Two people at 0.25 and 0.75; `talking(t)` says whose mouth moves (and who is loud) at t. */
function podcast(
	seconds: number,
	talking: (t: number) => "left" | "right" | "both" | null,
	options: { stereo?: boolean; mouths?: boolean } = {},
) {
	const { stereo = false, mouths = true } = options;
	const samples: FaceSample[] = [];
	const energy: ChannelEnergy[] = [];
	for (let i = 0; i < seconds * FPS; i++) {
		const t = i / FPS;
		const who = talking(t);
		const moves = (side: "left" | "right") => (mouths && (who === side || who === "both") ? 20 : 0.3);
		samples.push({ t, faces: [face(0.25, moves("left")), face(0.75, moves("right"))] });
		const loud = who ? 0.2 : 0.001;
		energy.push(
			stereo
				? [who === "left" || who === "both" ? 0.2 : 0.001, who === "right" || who === "both" ? 0.2 : 0.001]
				: [loud, loud],
		);
	}
	return { samples, energy, cuts: [] as number[], duration: seconds };
}

describe("analyseSpeakers", () => {
	it("follows turns by mouth motion on a mono mix, cutting where the new speaker starts", () => {
		const { turns, decidedShare, twoFaceShare } = analyseSpeakers(
			podcast(12, (t) => (t < 4 ? "left" : t < 8 ? "right" : "left")),
		);
		expect(twoFaceShare).toBe(1);
		expect(decidedShare).toBeGreaterThan(0.8);
		expect(turns.map((t) => t.person)).toEqual([0, 1, 0]);
		expect(turns[1]!.from).toBeCloseTo(4, 0);
		expect(turns[2]!.from).toBeCloseTo(8, 0);
	});

	it("follows a panned stereo mix when the faces do not move (a still camera, a detector without mouths)", () => {
		const { turns } = analyseSpeakers(
			podcast(10, (t) => (t < 5 ? "right" : "left"), { stereo: true, mouths: false }),
		);
		expect(turns.map((t) => t.person)).toEqual([1, 0]);
	});

	it("never holds a speaker shorter than MIN_HOLD_SECONDS inside a shot, whatever the talk", () => {
		fc.assert(
			fc.property(
				fc.array(fc.constantFrom("left", "right", "both", null), { minLength: 8, maxLength: 60 }),
				(script) => {
					const { turns } = analyseSpeakers(
						podcast(script.length / FPS, (t) => script[Math.round(t * FPS)] ?? null),
					);
					for (const turn of turns.slice(0, -1))
						expect(turn.to - turn.from).toBeGreaterThanOrEqual(MIN_HOLD_SECONDS - 1e-9);
					if (turns.length > 1)
						expect(turns.at(-1)!.to - turns.at(-1)!.from).toBeGreaterThanOrEqual(MIN_HOLD_SECONDS - 1e-9);
				},
			),
			{ numRuns: 200 },
		);
	});

	it("does not ping-pong on quick back-and-forth (one-word interjections)", () => {
		// Right says one word (0.25 s) every second while left talks.
		const { turns } = analyseSpeakers(podcast(10, (t) => (t % 1 < 0.25 && t > 1 ? "right" : "left")));
		expect(turns.map((t) => t.person)).toEqual([0]);
	});

	it("starts over at a scene cut: the new shot's people, its own first speaker, no hold carried over", () => {
		const input = podcast(8, (t) => (t < 4 ? "left" : "right"));
		// After the cut at 4 s the camera is wider: the people sit at 0.4 and 0.6.
		input.samples = input.samples.map((s) =>
			s.t < 4 ? s : { t: s.t, faces: [face(0.4, 0.3, 0.06), face(0.6, 20, 0.06)] },
		);
		input.cuts = [4];
		const { turns } = analyseSpeakers(input);
		expect(turns.map((t) => [t.from, t.person])).toEqual([
			[0, 0],
			[4, 1],
		]);
		expect(turns[1]!.box!.x + turns[1]!.box!.width / 2).toBeCloseTo(0.6, 5);
	});

	it("tells auto when who speaks cannot be told: both talking at once, or nobody moving on a mono mix", () => {
		expect(analyseSpeakers(podcast(8, () => "both")).decidedShare).toBeLessThan(0.5);
		expect(analyseSpeakers(podcast(8, () => "left", { mouths: false })).decidedShare).toBeLessThan(0.5);
	});

	it("counts samples with two faces, and gives one turn on the only face or the centre", () => {
		const one = analyseSpeakers({
			samples: Array.from({ length: 8 }, (_, i) => ({ t: i / 4, faces: [face(0.3, 5)] })),
			energy: null,
			cuts: [],
			duration: 2,
		});
		expect(one.twoFaceShare).toBe(0);
		expect(one.turns).toMatchObject([{ from: 0, to: 2, person: 0 }]);
		const none = analyseSpeakers({ samples: [], energy: null, cuts: [], duration: 2 });
		expect(none.turns).toEqual([{ from: 0, to: 2, person: -1, box: null }]);
	});
});

describe("speakerCropPlan", () => {
	it("cuts (a 1 ms step, no pan) between the speakers' crop positions", () => {
		const { turns } = analyseSpeakers(podcast(8, (t) => (t < 4 ? "left" : "right")));
		const plan = speakerCropPlan(turns, 16 / 9, 9 / 16)!;
		const size = 9 / 16 / (16 / 9);
		const centre = (t: number) => positionAt(plan.keyframes, t) * (1 - size) + size / 2;
		expect(centre(2)).toBeCloseTo(0.25, 2);
		expect(centre(6)).toBeCloseTo(0.75, 2);
		const cut = turns[1]!.from;
		expect(centre(cut - 0.002)).toBeCloseTo(0.25, 2);
		expect(centre(cut)).toBeCloseTo(0.75, 2);
	});
});

describe("stackedCrops", () => {
	it("keeps both crops inside the source, in the half's shape, each around its face", () => {
		fc.assert(
			fc.property(
				fc.double({ min: 0.05, max: 0.45, noNaN: true }),
				fc.double({ min: 0.55, max: 0.95, noNaN: true }),
				fc.double({ min: 0.03, max: 0.4, noNaN: true }),
				(a, b, w) => {
					const source = { width: 1920, height: 1080 };
					const crops = stackedCrops([face(a, 0, w), face(b, 0, w)], source, { width: 1080, height: 960 });
					for (const [crop, centre] of [
						[crops[0], a],
						[crops[1], b],
					] as const) {
						expect(crop.x).toBeGreaterThanOrEqual(0);
						expect(crop.y).toBeGreaterThanOrEqual(0);
						expect(crop.x + crop.width).toBeLessThanOrEqual(source.width);
						expect(crop.y + crop.height).toBeLessThanOrEqual(source.height);
						expect(crop.width / crop.height).toBeCloseTo(1080 / 960, 1);
						const inside = Math.min(
							Math.max(centre * source.width, crop.width / 2),
							source.width - crop.width / 2,
						);
						expect(Math.abs(crop.x + crop.width / 2 - inside)).toBeLessThan(3);
					}
				},
			),
			{ numRuns: 100 },
		);
	});
});
