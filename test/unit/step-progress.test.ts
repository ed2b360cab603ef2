/**
 * The video's stage and progress come from one table per plan (video-plan.ts), written by the step
 * runner (staged-steps.ts): walked in the plan's order, a first run moves forward through
 * downloading → uploading → transcribing → analyzing → generating_clips and its progress only rises,
 * whichever way its words come (transcribed in chunks, or read from captions or subtitles).
 */
import { describe, expect, it } from "vitest";
import { PROCESSING_STAGES } from "@clipforge/domain";
import { progressAt, TRANSCRIBING_SHARES } from "../../src/worker/domain/progress";
import {
	FIRST_RUN_PROGRESS,
	REPROCESS_PROGRESS,
	type StageMark,
	type StepProgressTable,
	VIDEO_STEP_NAMES,
} from "../../src/workflows/video-plan";

type Key = keyof typeof VIDEO_STEP_NAMES;

/**
 * The marks the runner writes for `steps` run one after another (`[key, count]`: a counted family of
 * `count`), and the video's progress after each: an entered stage's mark is a floor (db/videos.ts
 * enterStage keeps a higher progress), a left step's raises it.
 */
function marksOf(table: StepProgressTable, steps: [Key, number][]): StageMark[] {
	const marks: StageMark[] = [];
	for (const [key, count] of steps) {
		const row = table[key] ?? {};
		for (let ended = 1; ended <= count; ended++) {
			if (row.enter) marks.push(row.enter);
			if (row.leave) marks.push(typeof row.leave === "function" ? row.leave(ended / count) : row.leave);
			if (row.next) marks.push(row.next);
		}
	}
	return marks;
}

/** Stages never go back, and no mark is below one written before it in an earlier stage or by a step that ended. */
function expectForward(marks: StageMark[]): void {
	const stages = marks.map((m) => PROCESSING_STAGES.indexOf(m.stage));
	expect(stages).toEqual([...stages].sort((a, b) => a - b));
	const firsts = marks.filter((m, i) => i === 0 || m.stage !== marks[i - 1]!.stage);
	const progress = firsts.map((m) => progressAt(m.stage, m.at));
	expect(progress).toEqual([...progress].sort((a, b) => a - b));
	let reached = 0;
	for (const mark of marks) reached = Math.max(reached, progressAt(mark.stage, mark.at));
	expect(reached).toBe(progressAt(marks.at(-1)!.stage, 1));
}

const CLIPPING: [Key, number][] = [
	["rank", 1],
	["render", 4],
	["finish", 1],
];

describe("the step runner's stage and progress table", () => {
	it("a transcribed first run moves through every stage in order, progress only rising", () => {
		const marks = marksOf(FIRST_RUN_PROGRESS, [
			["download", 1],
			["upload", 1],
			["extractAudio", 1],
			["transcribe", 5],
			["merge", 1],
			["chapters", 1],
			["signals", 1],
			["look", 1],
			...CLIPPING,
		]);
		expectForward(marks);
		expect([...new Set(marks.map((m) => m.stage))]).toEqual([...PROCESSING_STAGES]);
		expect(marks.at(-1)).toEqual({ stage: "generating_clips", at: 1 });
		// Each chunk transcribed raises progress by its share of the chunks' part of the band.
		const left = marksOf({ transcribe: { leave: FIRST_RUN_PROGRESS.transcribe!.leave } }, [["transcribe", 5]]);
		const chunks = left.map((m) => progressAt(m.stage, m.at));
		expect(chunks).toEqual([...chunks].sort((a, b) => a - b));
		expect(new Set(chunks).size).toBe(5);
	});

	it("a first run whose words are read from the source's subtitles moves the same way", () => {
		const marks = marksOf(FIRST_RUN_PROGRESS, [
			["download", 1],
			["upload", 1],
			["fetchSubtitles", 1],
			["readSupplied", 1],
			...CLIPPING,
		]);
		expectForward(marks);
		expect([...new Set(marks.map((m) => m.stage))]).toEqual([...PROCESSING_STAGES]);
	});

	it("a running job's progress moves across its step's own part of the band: the chunks' and the renders' parts tile", () => {
		const spans = (key: "transcribe" | "render", total: number) =>
			Array.from({ length: total }, (_, index) => {
				const during = FIRST_RUN_PROGRESS[key]!.during!;
				return typeof during === "function" ? during({ index, total, ended: index }) : during;
			});
		for (const [key, total] of [
			["transcribe", 5],
			["render", 4],
		] as const) {
			const parts = spans(key, total);
			for (let i = 1; i < total; i++) expect(parts[i]!.from).toBeCloseTo(parts[i - 1]!.to);
			expect(parts.every((p) => p.from < p.to)).toBe(true);
		}
		expect(spans("transcribe", 5)[0]!.from).toBe(TRANSCRIBING_SHARES.extract);
		expect(spans("transcribe", 5)[4]!.to).toBeCloseTo(TRANSCRIBING_SHARES.extract + TRANSCRIBING_SHARES.chunks);
		expect(spans("render", 4)[3]!.to).toBe(1);
	});

	it("a reprocess, started in analyzing, ends the band and renders", () => {
		const marks = marksOf(REPROCESS_PROGRESS, [["signals", 1], ...CLIPPING]);
		expectForward(marks);
		expect(marks[0]).toEqual({ stage: "analyzing", at: 1 });
	});
});
