/**
 * The time arithmetic of every tier job, as properties over every duration a user may send: clips
 * of 5-600 s and sources up to a custom plan's 10 hours, fractional values included (37.86 s gave
 * spawn a timeout of 757200.0000000002 ms and failed every render over 30 s). And the one process
 * wrapper: any positive timeout runs, a nonsensical one is an internal error naming the job.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_TIMER_MS, renderJobBudgetMs } from "@clipforge/contract";
import { samplingPlan } from "../src/framing/faces.ts";
import { runAsJob } from "../src/runtime/job-context.ts";
import { jobTimeouts } from "../src/runtime/job-timeouts.ts";
import { ProcessError, runProcess } from "../src/runtime/run-process.ts";
import { toTierError } from "../src/runtime/tier-error.ts";

const CLIP = { min: 5, max: 600 };
const SOURCE_MAX = 10 * 3600;
/** Durations as they come from media: any double in the range, and the values that broke things. */
const durations = (max: number) =>
	fc.oneof(
		fc.double({ min: 0.001, max, noNaN: true }),
		fc.constantFrom(37.86, 600.022, 0.1 + 0.2, 59.999, 90.00000000001, max),
	);
const clipSeconds = fc.oneof(
	fc.double({ min: CLIP.min, max: CLIP.max, noNaN: true }),
	fc.constantFrom(37.86, 45.3, 600, 5),
);

/** Which durations each job's timeout is derived from. */
const ranges: Record<keyof typeof jobTimeouts, number> = {
	renderEncode: CLIP.max + 1,
	faceScan: CLIP.max + 1,
	channelEnergy: CLIP.max + 1,
	silenceDetect: CLIP.max + 1,
	loudness: SOURCE_MAX,
	frameCopy: SOURCE_MAX,
	audioChunk: SOURCE_MAX,
	localTranscription: SOURCE_MAX,
};

const isTimerValue = (ms: number) => Number.isInteger(ms) && ms >= 1 && ms <= MAX_TIMER_MS;

describe("every timeout a tier job derives from a media duration", () => {
	for (const [job, timeoutFor] of Object.entries(jobTimeouts)) {
		it(`${job}: a whole number of milliseconds a timer accepts, growing with the media`, () => {
			fc.assert(
				fc.property(
					durations(ranges[job as keyof typeof jobTimeouts]),
					durations(ranges[job as keyof typeof jobTimeouts]),
					(a, b) => {
						const [short, long] = a <= b ? [a, b] : [b, a];
						expect(isTimerValue(timeoutFor(short)), `${job}(${short}) = ${timeoutFor(short)}`).toBe(true);
						expect(timeoutFor(short)).toBeLessThanOrEqual(timeoutFor(long));
					},
				),
				{ numRuns: 300 },
			);
		});
	}

	it("a 37.86 s clip and a 600.022 s source get whole milliseconds (the values that failed)", () => {
		// A 37.86 s clip from 0.98 to 38.84 s, as floating point reads it: 757200.0000000001 ms at 20 s/s.
		const clip = 38.84 - 0.98;
		expect(clip * 20_000).not.toBe(757_200);
		expect(jobTimeouts.renderEncode(clip)).toBe(Math.ceil(clip * 20_000));
		expect(Number.isInteger(jobTimeouts.renderEncode(clip))).toBe(true);
		expect(Number.isInteger(jobTimeouts.loudness(600.022))).toBe(true);
	});

	it("the Worker waits longer for a render job than all of the job's processes may run, for every clip length", () => {
		fc.assert(
			fc.property(clipSeconds, (seconds) => {
				expect(isTimerValue(renderJobBudgetMs(seconds))).toBe(true);
				const perClip = [
					jobTimeouts.renderEncode,
					jobTimeouts.faceScan,
					jobTimeouts.channelEnergy,
					jobTimeouts.silenceDetect,
				].map((timeoutFor) => timeoutFor(seconds));
				// + the thumbnail's 2 minutes and two 30 s ffprobes.
				expect(renderJobBudgetMs(seconds)).toBeGreaterThan(perClip.reduce((a, b) => a + b) + 3 * 60_000);
			}),
		);
	});

	it("the face scan samples a positive whole number of frames at a rate ffmpeg reads, for every clip length", () => {
		fc.assert(
			fc.property(clipSeconds, (seconds) => {
				const plan = samplingPlan(seconds);
				expect(Number(plan.fps.toFixed(4))).toBeGreaterThan(0);
				expect(Number.isInteger(plan.expectedFrames) && plan.expectedFrames >= 1).toBe(true);
				expect(plan.expectedFrames).toBeLessThanOrEqual(240);
			}),
		);
	});
});

describe("runProcess's timeout", () => {
	it("runs a process with any positive timeout, fractional or past a timer's range", async () => {
		for (const timeoutMs of [757_200.0000000002, 1e12, Infinity]) {
			await expect(runProcess("true", [], { timeoutMs })).resolves.toEqual({ stdout: "", stderr: "" });
		}
	});

	it("refuses NaN or a value ≤ 0 as an internal error naming the job, not retried", async () => {
		for (const timeoutMs of [Number.NaN, 0, -5]) {
			const failure = await runAsJob("renderClip", () => runProcess("true", [], { timeoutMs })).catch(
				(e: unknown) => e,
			);
			expect(failure).toBeInstanceOf(ProcessError);
			expect((failure as ProcessError).message).toMatch(
				/^Internal error in the render tier's renderClip job: it gave true an invalid timeout/,
			);
			const tierError = toTierError(failure);
			expect(tierError).toMatchObject({ code: "internal_error", retryable: false });
		}
	});
});
