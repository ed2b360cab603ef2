/** The workflow steps' timeline (schema.ts `video_steps`): written once per step attempt, read by benchmarks. */
import { asc, eq, lt } from "drizzle-orm";
import type { Db } from "./client";
import { videoSteps } from "./schema";

export interface StepTiming {
	videoId: string;
	instanceId: string;
	step: string;
	startedAt: string;
	endedAt: string;
	ok: boolean;
}

export async function recordStep(db: Db, timing: StepTiming): Promise<void> {
	await db.insert(videoSteps).values(timing);
}

export function stepsOf(db: Db, videoId: string): Promise<StepTiming[]> {
	return db
		.select({
			videoId: videoSteps.videoId,
			instanceId: videoSteps.instanceId,
			step: videoSteps.step,
			startedAt: videoSteps.startedAt,
			endedAt: videoSteps.endedAt,
			ok: videoSteps.ok,
		})
		.from(videoSteps)
		.where(eq(videoSteps.videoId, videoId))
		.orderBy(asc(videoSteps.id))
		.all();
}

/** @returns how many rows were dropped. */
export async function purgeStepsBefore(db: Db, cutoff: string): Promise<number> {
	const result = await db.delete(videoSteps).where(lt(videoSteps.endedAt, cutoff)).run();
	return result.meta.changes ?? 0;
}
