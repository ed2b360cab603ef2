/**
 * Records when each workflow step ran (db/video-steps.ts) by wrapping the `WorkflowStep` the
 * workflow is given: the step list in process-video.ts stays as it is, and every `step.do` body that
 * actually runs (not a result replayed from an earlier run) writes one row when it ends, ok or not.
 * A failed write is logged and never fails the step: the timeline is for reading, not for control.
 * A failed attempt is logged too (`step_failed`, with the step's name, attempt and error), so Workers
 * Logs has every attempt the workflow retried, not only the video's last error.
 */
import type { WorkflowStep } from "cloudflare:workers";
import type { Db } from "../db/client";
import { recordStep } from "../db/video-steps";
import type { Logger } from "../lib/log";

/** Cron: rows older than this are dropped. */
export const STEP_TIMELINE_DAYS = 30;

type Body = (...context: unknown[]) => Promise<unknown>;

/**
 * @param log The run's logger when the step ends (a getter: the workspace is known only once the
 * video is loaded, by the run's first step).
 */
export function withStepTimeline(
	step: WorkflowStep,
	db: Db,
	ids: { videoId: string; instanceId: string },
	log: () => Logger,
): WorkflowStep {
	const timed =
		(name: string, body: Body): Body =>
		async (...context) => {
			const startedAt = new Date().toISOString();
			let ok = false;
			try {
				const result = await body(...context);
				ok = true;
				return result;
			} catch (error) {
				const attempt = (context[0] as { attempt?: number } | undefined)?.attempt;
				log().with({ step: name }).warn("step_failed", { attempt, error });
				throw error;
			} finally {
				await recordStep(db, { ...ids, step: name, startedAt, endedAt: new Date().toISOString(), ok }).catch(
					(error: unknown) => log().with({ step: name }).error("step_timeline_failed", { error }),
				);
			}
		};
	// `step.do(name, body)` or `step.do(name, config, body, rollback?)`: the body is the first function.
	const stepDo = (name: string, ...rest: unknown[]) => {
		const at = rest.findIndex((arg) => typeof arg === "function");
		const args = rest.map((arg, i) => (i === at ? timed(name, arg as Body) : arg));
		return (step.do as (name: string, ...args: unknown[]) => Promise<unknown>)(name, ...args);
	};
	return {
		do: stepDo as WorkflowStep["do"],
		sleep: (name, duration) => step.sleep(name, duration),
		sleepUntil: (name, timestamp) => step.sleepUntil(name, timestamp),
		waitForEvent: (name, options) => step.waitForEvent(name, options),
	} as WorkflowStep;
}
