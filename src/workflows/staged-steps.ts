/**
 * The step runner of a video's own steps: each runs as a durable step under its name (video-plan.ts
 * VIDEO_STEP_NAMES), and the video's stage and progress are written here, around its body, from the
 * plan's table (FIRST_RUN_PROGRESS, REPROCESS_PROGRESS), so no body writes its own: a body that runs
 * a job is handed the job's progress callback, already placed in its part of the band. The writes
 * sit inside the durable step: one that fails is retried with the step, and a step whose result is
 * replayed writes nothing again.
 */
import type { WorkflowStep, WorkflowStepConfig, WorkflowStepContext } from "cloudflare:workers";
import type { Db } from "../worker/db/client";
import { enterStage, raiseProgress } from "../worker/db/videos";
import { progressAt } from "../worker/domain/progress";
import type { StepProgressReport } from "./steps/run";
import {
	VIDEO_STEP_NAMES,
	type StageMark,
	type StepPlace,
	type StepProgress,
	type StepProgressTable,
} from "./video-plan";

type Names = typeof VIDEO_STEP_NAMES;
/** A step that runs once per run, and one of a counted family (`transcribe chunk 2 of 5`). */
export type OneStep = { [K in keyof Names]: Names[K] extends string ? K : never }[keyof Names];
export type CountedStep = Exclude<keyof Names, OneStep>;

type Body<T> = (ctx: WorkflowStepContext, progress: StepProgressReport) => Promise<T>;

export interface StagedSteps {
	one<T extends Rpc.Serializable<T>>(key: OneStep, config: WorkflowStepConfig, body: Body<T>): Promise<T>;
	each<T extends Rpc.Serializable<T>>(
		key: CountedStep,
		index: number,
		total: number,
		config: WorkflowStepConfig,
		body: Body<T>,
	): Promise<T>;
}

type Video = { db: Db; videoId: string };

export function stagedSteps(video: Video, step: WorkflowStep, table: StepProgressTable): StagedSteps {
	const enter = (to: StageMark) => enterStage(video.db, video.videoId, to.stage, progressAt(to.stage, to.at));
	const raise = (to: StageMark) => raiseProgress(video.db, video.videoId, progressAt(to.stage, to.at));
	// Steps of each counted family that ended in this run, replayed ones too: what `during` and `leave` are given.
	const ended = new Map<string, number>();
	const staged = async <T extends Rpc.Serializable<T>>(
		key: keyof Names,
		name: string,
		config: WorkflowStepConfig,
		body: Body<T>,
		place: Omit<StepPlace, "ended"> = { index: 0, total: 1 },
	): Promise<T> => {
		const row: StepProgress = table[key] ?? {};
		const result = await step.do(name, config, async (ctx) => {
			if (row.enter) await enter(row.enter);
			const value = await body(ctx, reportOf(video, row, { ...place, ended: ended.get(key) ?? 0 }));
			const share = Math.min(1, ((ended.get(key) ?? 0) + 1) / place.total);
			if (row.leave) await raise(typeof row.leave === "function" ? row.leave(share) : row.leave);
			if (row.next) await enter(row.next);
			return value;
		});
		ended.set(key, (ended.get(key) ?? 0) + 1);
		return result;
	};
	return {
		one: (key, config, body) => staged(key, VIDEO_STEP_NAMES[key], config, body),
		each: (key, index, total, config, body) =>
			staged(key, VIDEO_STEP_NAMES[key](index, total), config, body, { index, total }),
	};
}

/** The job's 0..1 as the video's progress across the step's `during` span (nothing when it has none). */
function reportOf(video: Video, row: StepProgress, place: StepPlace): StepProgressReport {
	if (!row.during) return async () => undefined;
	const { stage, from, to } = typeof row.during === "function" ? row.during(place) : row.during;
	const report = throttled((value) => raiseProgress(video.db, video.videoId, value));
	return (fraction) => report(progressAt(stage, from + fraction * (to - from)));
}

/**
 * D1 sees at most one write a second (plus the last value): a job can report many times a second.
 * Only a rise is written.
 */
export function throttled(
	write: (value: number) => Promise<void>,
	intervalMs = 1000,
): (value: number) => Promise<void> {
	let lastAt = 0;
	let lastValue = -1;
	return async (value) => {
		const now = Date.now();
		if (value <= lastValue || (now - lastAt < intervalMs && value < 100)) return;
		lastAt = now;
		lastValue = value;
		await write(value);
	};
}
