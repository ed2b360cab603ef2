/**
 * ProcessVideoWorkflow: one durable instance per video (instance id = video id), and its step list.
 *
 * downloading → uploading → transcribing → analyzing → generating_clips → completed, or failed with
 * an errorMessage and the minutes refunded (unless the workspace caused it). Before anything is
 * fetched the video claims one of its workspace's processing slots, waiting in `downloading` for
 * its turn when they are all taken (services/processing-slots.ts). Every step has a fixed name, is safe to repeat (status
 * writes are guarded, R2 keys are fixed, finished work is detected and skipped), and returns only
 * small values (keys, counts). Permanent failures throw NonRetryableError so no retry is wasted.
 * Each step's body is in steps/; the video's stage and progress are written around the bodies by
 * staged-steps.ts, from video-plan.ts's table. A reprocess of a finished video is an instance of its own (id
 * `<videoId>-r<n>`) that runs analyzing and generating_clips again (see `reprocess` below); a clip
 * edit is one too (id `<clipId>-e<n>`), rendering that one clip again (see `editClip`).
 */
import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep, type WorkflowStepConfig } from "cloudflare:workers";
import { renderJobBudgetMs } from "@clipforge/contract";
import { NonRetryableError } from "cloudflare:workflows";
import { CLIP_SECONDS } from "@clipforge/domain";
import { withInjectedFaults } from "../worker/faults/env";
import { SLOT_EVENT } from "../worker/services/processing-slots";
import type { WebhookEvent } from "../worker/services/webhooks";
import { cleanUpTier, deliverEvent, failAndRefund, failureMessage, finish } from "./steps/finish";
import { prepareBackground, prepareCaptionLook, prepareWatermark, type RenderLook } from "./steps/look";
import { findChaptersStep } from "./steps/chapters";
import { computeSignals, rankAttempt, rankMoments } from "./steps/rank";
import { fetchSourceSubtitles, readSuppliedWords } from "./steps/supplied-transcript";
import { renderClipStep } from "./steps/render-clip";
import { claimSlotStep } from "./steps/slot";
import { failClipEditStep, finishClipEdit, loadClipEdit, prepareEditLook, renderEditedClip } from "./steps/edit-clip";
import {
	failReprocessStep,
	finishReprocess,
	loadReprocess,
	rankReprocess,
	reuseOrComputeSignals,
} from "./steps/reprocess";
import { loadVideo, videoRun, withWorkspace, type LoadedVideo, type VideoRun } from "./steps/run";
import { downloadSourceStep, uploadSource } from "./steps/source";
import { extractAudioStep, mergeTranscript, transcribeChunk } from "./steps/transcribe";
import { renderInstance } from "../worker/services/render-instances";
import { withStepTimeline } from "../worker/services/step-timeline";
import { settingsOf } from "../worker/settings";
import { paramsOf, type ClipEditParams, type ProcessVideoParams } from "./params";
import { FIRST_RUN_PROGRESS, REPROCESS_PROGRESS, runReprocessPlan, runVideoPlan } from "./video-plan";
import { stagedSteps, type StagedSteps } from "./staged-steps";

const DB_STEP: WorkflowStepConfig = {
	retries: { limit: 5, delay: "2 seconds", backoff: "exponential" },
	timeout: "2 minutes",
};
const RENDER_STEP: WorkflowStepConfig = {
	retries: { limit: 3, delay: "10 seconds", backoff: "exponential" },
	timeout: "30 minutes",
};
/**
 * Rendering a clip up to `clipSeconds` long: the step waits as long as the tier may take for it
 * (the contract's render budget, which grows with the clip), so a 10-minute clip on a slow
 * instance is not given up while the tier is still within its own limits.
 */
const renderStep = (clipSeconds: number): WorkflowStepConfig => ({
	...RENDER_STEP,
	timeout: renderJobBudgetMs(clipSeconds),
});
const DOWNLOAD_STEP: WorkflowStepConfig = {
	retries: { limit: 3, delay: "15 seconds", backoff: "exponential" },
	timeout: "2 hours",
};
/** Receivers get about a day of retries: 30 s, 1 min, 2 min … (exponential), ten attempts. */
const WEBHOOK_STEP: WorkflowStepConfig = {
	retries: { limit: 9, delay: "30 seconds", backoff: "exponential" },
	timeout: "1 minute",
};
/** 15 s, 30 s, 1 min … (exponential), six attempts over about 8 minutes: past a drain's successor start. */
const TIER_CLEANUP_STEP: WorkflowStepConfig = {
	retries: { limit: 5, delay: "15 seconds", backoff: "exponential" },
	timeout: "1 minute",
};
const TRANSCRIBE_STEP: WorkflowStepConfig = {
	retries: { limit: 4, delay: "10 seconds", backoff: "exponential" },
	timeout: "30 minutes",
};
/**
 * The LLM analysis makes up to ~20 model calls (ClipPro's two passes), each retried on capacity and
 * timeout errors; when all of them still fail, the step is retried (1 min, then 2 min later) and its
 * last attempt falls back to the offline ranker (rankAttempt).
 */
const RANK_STEP: WorkflowStepConfig = {
	retries: { limit: 2, delay: "1 minute", backoff: "exponential" },
	timeout: "15 minutes",
};

/** A waiting video checks for a slot this often even when no event wakes it; and gives up after a day. */
const SLOT_CHECK_EVERY = "2 minutes";
const MAX_SLOT_CHECKS = 720;

export class ProcessVideoWorkflow extends WorkflowEntrypoint<Env, ProcessVideoParams> {
	async run(event: WorkflowEvent<ProcessVideoParams>, workflowStep: WorkflowStep) {
		const params = paramsOf(event.payload);
		if (params.kind === "smoke")
			return workflowStep.do("smoke check", DB_STEP, async () => ({ status: "smoke", clips: 0 }));
		// R2's seam (faults/env.ts): the bindings themselves unless a local stack sets INJECT_FAULTS.
		const run = videoRun(withInjectedFaults(this.env), params.videoId, event.instanceId);
		// Every step that runs also leaves a row of the video's timeline (when it started and ended),
		// and a failed attempt a log line.
		const step = withStepTimeline(
			workflowStep,
			run.db,
			{ videoId: run.videoId, instanceId: event.instanceId },
			() => run.log,
		);
		if (params.kind === "reprocess") return runReprocess(run, step, params.reprocessId);
		if (params.kind === "clipEdit") return runClipEdit(run, step, params.clipEdit);
		return runProcess(run, step);
	}
}

/** A video's first run: the steps, or, when one fails for good, the failure and its refund. */
async function runProcess(run: VideoRun, step: WorkflowStep) {
	let outcome: Awaited<ReturnType<typeof processVideo>>;
	try {
		outcome = await processVideo(run, step);
	} catch (error) {
		const message = failureMessage(error);
		run.log.error("video_failed", { error: message });
		await step.do("mark video failed and refund minutes", DB_STEP, () => failAndRefund(run, message));
		await announceEnd(run, step, "video.failed");
		throw new NonRetryableError(message);
	}
	if (outcome.notify) await announceEnd(run, step, "video.completed");
	return { status: outcome.status, clips: outcome.clips };
}

/**
 * A first run: the order and fan-out are video-plan.ts's (also what `npm run bench:plan` simulates);
 * here each of its steps is a durable step with its fixed name.
 */
async function processVideo(run: VideoRun, step: WorkflowStep) {
	const video = await step.do("load video", DB_STEP, () => loadVideo(run));
	withWorkspace(run, video.workspaceId);
	if (video.status === "completed" || video.status === "failed")
		return { status: video.status, clips: 0, notify: false };
	if ((await waitForSlot(run, step, video)) === "finished") return { status: "finished", clips: 0, notify: false };
	const { config } = video;
	// The video's stage and progress are written by the runner, from the plan's table (staged-steps.ts).
	const staged = stagedSteps(run, step, FIRST_RUN_PROGRESS);
	const { clips } = await runVideoPlan(
		{
			download: () =>
				staged.one("download", DOWNLOAD_STEP, (_, progress) => downloadSourceStep(run, video, progress)),
			upload: () => staged.one("upload", DOWNLOAD_STEP, (_, progress) => uploadSource(run, video, progress)),
			extractAudio: () => staged.one("extractAudio", RENDER_STEP, () => extractAudioStep(run, video)),
			transcribe: (chunk, n, total) =>
				staged.each("transcribe", n, total, TRANSCRIBE_STEP, (_, progress) =>
					transcribeChunk(run, video, chunk, progress),
				),
			merge: (chunks) => staged.one("merge", DB_STEP, () => mergeTranscript(run, video, chunks)),
			readSupplied: () => readSupplied(run, staged, video),
			chapters: (transcript) =>
				staged.one("chapters", RANK_STEP, (ctx) => findChaptersStep(run, transcript.key, rankAttempt(ctx))),
			signals: () => staged.one("signals", RENDER_STEP, () => computeSignals(run, video)),
			look: () => prepareLook(run, step, staged, video),
			rank: async (transcript, signals) =>
				(
					await staged.one("rank", RANK_STEP, (ctx) =>
						rankMoments(run, video, transcript.key, signals, rankAttempt(ctx)),
					)
				).clipIds,
			render: (clip) =>
				renderOne(run, staged, video, clip.clipId, clip.index, clip.total, {
					sourceKey: clip.source.key,
					transcriptKey: clip.transcript.key,
					look: clip.look,
				}),
			finish: (count) => staged.one("finish", DB_STEP, () => finish(run, video, count)),
		},
		settingsOf(run.env).fanOut,
		{ clipping: !config.skipClipping, supplied: (video.transcript?.source ?? "transcription") !== "transcription" },
	);
	return { status: "completed", clips, notify: true };
}

/**
 * The words of supplied captions, or of the source's subtitles once fetched; null when the source
 * no longer serves them (then the audio is transcribed, as for any video).
 */
async function readSupplied(run: VideoRun, staged: StagedSteps, video: LoadedVideo) {
	if (video.transcript?.source === "subtitles") {
		const { fetched } = await staged.one("fetchSubtitles", RENDER_STEP, () => fetchSourceSubtitles(run, video));
		if (!fetched) return null;
	}
	return staged.one("readSupplied", DB_STEP, () => readSuppliedWords(run, video));
}

/** What every clip of the video shares, decided once (each part only when the config asks for it). */
async function prepareLook(
	run: VideoRun,
	step: WorkflowStep,
	staged: StagedSteps,
	video: LoadedVideo,
): Promise<RenderLook> {
	const { config } = video;
	const [watermark, backgroundKey, captions] = await Promise.all([
		config.enableWatermark ? step.do("prepare the watermark", DB_STEP, () => prepareWatermark(run, video)) : null,
		config.enableSplitScreen
			? step.do("prepare the split-screen background", RENDER_STEP, () => prepareBackground(run, video))
			: null,
		config.enableCaptions ? staged.one("look", DB_STEP, () => prepareCaptionLook(run, video)) : undefined,
	]);
	return { watermark, backgroundKey, ...(captions ? { captions } : {}) };
}

/** Clip `n` of `total`, on the render pool's instance for that position. */
function renderOne(
	run: VideoRun,
	staged: StagedSteps,
	video: LoadedVideo,
	clipId: string,
	n: number,
	total: number,
	stored: { sourceKey: string; transcriptKey: string; look: RenderLook },
) {
	const job = { clipId, ...stored, instance: renderInstance.render(run.env, run.videoId, n) };
	return staged.each("render", n, total, renderStep(video.config.clipDurationMax), (_, progress) =>
		renderClipStep(run, video, job, progress),
	);
}

/**
 * A reprocess: analyzing and generating_clips again with the video's new config, from the stored
 * source and transcript (no download, no transcription). Its clips replace the previous ones once
 * all are rendered; if it fails, the video ends failed with its previous clips and config, and the
 * reprocess's minutes are refunded (the video's own charge stays: that work was delivered).
 */
async function runReprocess(run: VideoRun, step: WorkflowStep, reprocessId: string) {
	let outcome: Awaited<ReturnType<typeof reprocessSteps>>;
	try {
		outcome = await reprocessSteps(run, step, reprocessId);
	} catch (error) {
		const cause = failureMessage(error);
		run.log.error("reprocess_failed", { error: cause });
		const failed = await step.do("mark reprocess failed and refund its minutes", DB_STEP, () =>
			failReprocessStep(run, reprocessId, cause),
		);
		await announceEnd(run, step, "video.failed");
		throw new NonRetryableError(`Reprocessing failed: ${cause} (${failed.minutesRefunded} minute(s) refunded)`);
	}
	if (outcome.notify) await announceEnd(run, step, "video.completed");
	return { status: outcome.status, clips: outcome.clips };
}

async function reprocessSteps(run: VideoRun, step: WorkflowStep, reprocessId: string) {
	const { video, reprocess } = await step.do("load reprocess", DB_STEP, () => loadReprocess(run, reprocessId));
	withWorkspace(run, video.workspaceId);
	if (reprocess.status !== "processing") return { status: reprocess.status, clips: 0, notify: false };
	let ranked: Awaited<ReturnType<typeof rankReprocess>> | undefined;
	const staged = stagedSteps(run, step, REPROCESS_PROGRESS);
	const { clips } = await runReprocessPlan(
		{
			signals: () => staged.one("signals", RENDER_STEP, () => reuseOrComputeSignals(run, video)),
			look: () => prepareLook(run, step, staged, video),
			rank: async (signals) =>
				(ranked = await staged.one("rank", RANK_STEP, (ctx) =>
					rankReprocess(run, video, reprocess, signals, rankAttempt(ctx)),
				)).clipIds,
			render: (clipId, n, total, look) =>
				renderOne(run, staged, video, clipId, n, total, {
					sourceKey: reprocess.sourceKey,
					transcriptKey: reprocess.transcriptKey,
					look,
				}),
			finish: () => step.do("finish reprocess", DB_STEP, () => finishReprocess(run, video, reprocess, ranked!)),
		},
		settingsOf(run.env).fanOut,
	);
	return { status: "completed", clips, notify: true };
}

/**
 * A clip edit: that one clip drawn again with its new cut, look or words, from the stored source
 * and transcript; the video stays `completed` meanwhile and its other clips are untouched. If the
 * render fails, the clip goes back to its previous version with `editError` saying why (edits are
 * free, so there is nothing to refund).
 */
async function runClipEdit(run: VideoRun, step: WorkflowStep, params: ClipEditParams) {
	try {
		const { video, edit } = await step.do("load clip edit", DB_STEP, () => loadClipEdit(run, params));
		withWorkspace(run, video.workspaceId);
		if (!edit.running) return { status: "skipped", clips: 0 };
		const look = await step.do("prepare the look of the edited clip", RENDER_STEP, () =>
			prepareEditLook(run, video),
		);
		const files = await step.do("render the edited clip", renderStep(CLIP_SECONDS.max), () =>
			renderEditedClip(run, video, edit, look),
		);
		const finished = await step.do("finish clip edit", DB_STEP, () => finishClipEdit(run, edit, files));
		return { status: finished.replaced ? "completed" : "overtaken", clips: 1 };
	} catch (error) {
		const cause = failureMessage(error);
		run.log.error("clip_edit_failed", { clipId: params.clipId, error: cause });
		await step.do("mark clip edit failed", DB_STEP, () => failClipEditStep(run, params, cause));
		throw new NonRetryableError(`Re-rendering clip ${params.clipId} failed: ${cause}`);
	}
}

/**
 * Claims a processing slot, or waits for one: woken by a `processing-slot` event when a video of
 * the workspace ends, else checking again every SLOT_CHECK_EVERY. "finished" when the video ended
 * (deleted, failed) while it waited.
 */
async function waitForSlot(
	run: VideoRun,
	step: WorkflowStep,
	video: { workspaceId: string } & Parameters<typeof claimSlotStep>[1],
): Promise<"claimed" | "finished"> {
	for (let check = 1; check <= MAX_SLOT_CHECKS; check++) {
		const name = check === 1 ? "claim a processing slot" : `claim a processing slot (${check})`;
		const { state } = await step.do(name, DB_STEP, () => claimSlotStep(run, video));
		if (state !== "waiting") return state;
		try {
			await step.waitForEvent(`wait for a processing slot (${check})`, {
				type: SLOT_EVENT,
				timeout: SLOT_CHECK_EVERY,
			});
		} catch {
			// No event within SLOT_CHECK_EVERY: check again.
		}
	}
	throw new NonRetryableError(
		"The video waited a day for one of its workspace's processing slots without getting one. The minutes were refunded.",
	);
}

/** A run that ended: its webhook, and its files on the tier removed, side by side (neither waits for the other). */
async function announceEnd(run: VideoRun, step: WorkflowStep, event: WebhookEvent): Promise<void> {
	await Promise.all([notify(run, step, event), cleanUpTierFiles(run, step)]);
}

/**
 * The video's files on the tier go once it has ended. Tried again for minutes (a draining instance
 * refuses new work until its successor is up); a cleanup never taken is left to the tier's own
 * sweep and never changes how the video ended.
 */
async function cleanUpTierFiles(run: VideoRun, step: WorkflowStep): Promise<void> {
	try {
		await step.do("clean up the video's files on the render tier", TIER_CLEANUP_STEP, () => cleanUpTier(run));
	} catch (error) {
		run.log.warn("tier_cleanup_lost", { error: failureMessage(error) });
	}
}

/** Sends the event to the video's webhook, if any; a receiver that keeps failing never changes the video's outcome. */
async function notify(run: VideoRun, step: WorkflowStep, event: WebhookEvent): Promise<void> {
	try {
		await step.do(`deliver ${event} webhook`, WEBHOOK_STEP, () => deliverEvent(run, event));
	} catch {
		// Every attempt is recorded in webhook_deliveries; nothing more to do.
	}
}
