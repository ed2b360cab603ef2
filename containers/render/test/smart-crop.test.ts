import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sceneCuts } from "../src/framing/faces.ts";
import {
	boundPanSpeed,
	MAX_PAN_CROP_WIDTHS_PER_SECOND,
	planCrop,
	positionAt,
	positionExpression,
	type FaceBox,
	type FaceSample,
} from "../src/framing/smart-crop.ts";

const SOURCE = 16 / 9;
const TARGET = 9 / 16;
const size = TARGET / SOURCE;

const face = (centreX: number, width = 0.1, score = 0.9): FaceBox => ({
	x: centreX - width / 2,
	y: 0.3,
	width,
	height: width * 1.7,
	score,
});
const samples = (seconds: number, at: (t: number) => FaceBox[]): FaceSample[] =>
	Array.from({ length: seconds * 4 }, (_, i) => ({ t: i / 4, faces: at(i / 4) }));
/** Where the window's centre is, as a fraction of the source width. */
const windowCentre = (p: number) => p * (1 - size) + size / 2;

describe("planCrop", () => {
	it("centres the window on a still face, and on the frame's centre when there is none", () => {
		const still = planCrop(
			samples(5, () => [face(0.3)]),
			[],
			SOURCE,
			TARGET,
		)!;
		expect(windowCentre(positionAt(still.keyframes, 2))).toBeCloseTo(0.3, 3);
		const empty = planCrop(
			samples(5, () => []),
			[],
			SOURCE,
			TARGET,
		)!;
		expect(positionAt(empty.keyframes, 2)).toBe(0.5);
		expect(empty.faceSamples).toBe(0);
	});

	it("follows a moving face with no lag and clamps at the frame's edges", () => {
		const plan = planCrop(
			samples(10, (t) => [face(0.05 + 0.09 * t)]),
			[],
			SOURCE,
			TARGET,
		)!;
		for (const t of [3, 5, 7]) expect(windowCentre(positionAt(plan.keyframes, t))).toBeCloseTo(0.05 + 0.09 * t, 2);
		expect(positionAt(plan.keyframes, 0)).toBe(0);
		expect(plan.keyframes.length).toBeLessThan(16); // of 40 samples: a straight pan needs few keyframes
	});

	it("stays on the speaker it follows when a second, bigger face enters", () => {
		const plan = planCrop(
			samples(6, (t) => (t < 2 ? [face(0.3)] : [face(0.3), face(0.8, 0.2)])),
			[],
			SOURCE,
			TARGET,
		)!;
		expect(windowCentre(positionAt(plan.keyframes, 5))).toBeCloseTo(0.3, 2);
	});

	it("resets at a scene cut and jumps there instead of panning across it", () => {
		const plan = planCrop(
			samples(6, (t) => [face(t < 3 ? 0.2 : 0.8)]),
			[3],
			SOURCE,
			TARGET,
		)!;
		expect(windowCentre(positionAt(plan.keyframes, 2.9))).toBeCloseTo(0.2, 2);
		expect(windowCentre(positionAt(plan.keyframes, 3))).toBeCloseTo(0.8, 2);
	});

	it("holds a face the detector loses for a moment", () => {
		const plan = planCrop(
			samples(6, (t) => (t > 2 && t < 3 ? [] : [face(0.7)])),
			[],
			SOURCE,
			TARGET,
		)!;
		expect(windowCentre(positionAt(plan.keyframes, 2.5))).toBeCloseTo(0.7, 2);
	});

	it("never pans faster than the bound, whatever the detections", () => {
		fc.assert(
			fc.property(
				fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 2, maxLength: 60 }),
				(centres) => {
					const plan = planCrop(
						centres.map((c, i) => ({ t: i / 4, faces: [face(c)] })),
						[],
						SOURCE,
						TARGET,
					)!;
					const limit = (MAX_PAN_CROP_WIDTHS_PER_SECOND * size) / (1 - size);
					for (let t = 0; t < centres.length / 4 - 0.1; t += 0.1) {
						const speed =
							Math.abs(positionAt(plan.keyframes, t + 0.1) - positionAt(plan.keyframes, t)) / 0.1;
						expect(speed).toBeLessThanOrEqual(limit * 1.05 + 0.02);
					}
				},
			),
			{ numRuns: 60 },
		);
	});

	it("moves along y for a wide output of a portrait source, and not at all for the same shape", () => {
		expect(
			planCrop(
				samples(2, () => [face(0.5)]),
				[],
				9 / 16,
				16 / 9,
			)!.axis,
		).toBe("y");
		expect(
			planCrop(
				samples(2, () => [face(0.5)]),
				[],
				16 / 9,
				16 / 9,
			),
		).toBeNull();
	});
});

describe("boundPanSpeed", () => {
	it("caps each step by the time between samples", () => {
		const out = boundPanSpeed([0, 0.25, 0.5], [0, 1, 1], 0.5);
		expect(out[1]).toBeCloseTo(MAX_PAN_CROP_WIDTHS_PER_SECOND * 0.25, 6);
	});
});

describe("positionExpression", () => {
	it("is the same piecewise-linear path positionAt describes", () => {
		const keyframes = [
			{ t: 0, p: 0.1 },
			{ t: 2, p: 0.5 },
			{ t: 2.001, p: 0.9 },
			{ t: 5, p: 0.6 },
		];
		const expression = positionExpression(keyframes).replace(/\\,/g, ",");
		// Evaluate ffmpeg's if/lt with JavaScript equivalents.
		const evaluate = (t: number) =>
			new Function("t", "if_", "lt", `return ${expression.replace(/\bif\(/g, "if_(")}`)(
				t,
				(c: number, a: number, b: number) => (c ? a : b),
				(a: number, b: number) => (a < b ? 1 : 0),
			) as number;
		for (const t of [0, 1, 1.99, 2.0005, 3, 5, 7]) expect(evaluate(t)).toBeCloseTo(positionAt(keyframes, t), 3);
	});
});

describe("sceneCuts", () => {
	it("finds the sample where the picture changes completely, not gradual motion", () => {
		const frame = (value: number) => new Uint8Array(32 * 18).fill(value);
		const cuts = sceneCuts([frame(20), frame(25), frame(30), frame(200), frame(205)], 4);
		expect(cuts).toEqual([0.75]);
	});
});
