/**
 * ProcessVideoWorkflow: one durable instance per video (instance id = video id), and its step list.
 *
 * downloading → uploading → transcribing → analyzing → generating_clips → completed, or failed with
 * an errorMessage and the minutes refunded. Every step has a fixed name, is safe to repeat (status
 * writes are guarded, R2 keys are fixed, finished work is detected and skipped), and returns only
 * small values (keys, counts). Permanent failures throw NonRetryableError so no retry is wasted.
 * Each step's body is in steps/.
 */
import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep, type WorkflowStepConfig } from "cloudflare:workers";
import { NonRetryableError } from "cloudflare:workflows";
import type { WebhookEvent } from "../worker/services/webhooks";
import { deliverEvent, failAndRefund, failureMessage, finish } from "./steps/finish";
import { prepareBackground, prepareCaptionLook, prepareWatermark, type RenderLook } from "./steps/look";
import { computeSignals, rankMoments } from "./steps/rank";
import { renderClip } from "./steps/render-clip";
import { loadVideo, videoRun, type VideoRun } from "./steps/run";
import { downloadSource, uploadSource } from "./steps/source";
import { extractAudio, mergeTranscript, transcribeChunk } from "./steps/transcribe";

export interface ProcessVideoParams {
	videoId: string;
}

const DB_STEP: WorkflowStepConfig = { retries: { limit: 5, delay: "2 seconds", backoff: "exponential" }, timeout: "2 minutes" };
const RENDER_STEP: WorkflowStepConfig = { retries: { limit: 3, delay: "10 seconds", backoff: "exponential" }, timeout: "30 minutes" };
const DOWNLOAD_STEP: WorkflowStepConfig = { retries: { limit: 3, delay: "15 seconds", backoff: "exponential" }, timeout: "2 hours" };
/** Receivers get about a day of retries: 30 s, 1 min, 2 min … (exponential), ten attempts. */
const WEBHOOK_STEP: WorkflowStepConfig = { retries: { limit: 9, delay: "30 seconds", backoff: "exponential" }, timeout: "1 minute" };
const TRANSCRIBE_STEP: WorkflowStepConfig = { retries: { limit: 4, delay: "10 seconds", backoff: "exponential" }, timeout: "30 minutes" };
/** The LLM analysis makes up to ~20 model calls (ClipPro's two passes); it falls back offline by itself, so few retries. */
const RANK_STEP: WorkflowStepConfig = { retries: { limit: 2, delay: "10 seconds", backoff: "exponential" }, timeout: "15 minutes" };

/**
 * Clip renders in flight at once, as a pool (a new one starts as soon as any finishes). One more
 * than the local tier's two cores: the tier encodes one clip per core and uploads outside its
 * encode slots, so the third starts encoding while another uploads. Production spreads them over
 * instances.
 */
const RENDER_PARALLELISM = 3;
/**
 * Container instances one video's renders are spread over. Renders read the source from R2, so
 * any instance can take one; download and upload stay on the video's own instance (its disk).
 */
const RENDER_INSTANCES_PER_VIDEO = 4;

export class ProcessVideoWorkflow extends WorkflowEntrypoint<Env, ProcessVideoParams> {
	async run(event: WorkflowEvent<ProcessVideoParams>, step: WorkflowStep) {
		const run = videoRun(this.env, event.payload.videoId);
		let outcome: Awaited<ReturnType<typeof processVideo>>;
		try {
			outcome = await processVideo(run, step);
		} catch (error) {
			const message = failureMessage(error);
			await step.do("mark video failed and refund minutes", DB_STEP, () => failAndRefund(run, message));
			await notify(run, step, "video.failed");
			throw new NonRetryableError(message);
		}
		if (outcome.notify) await notify(run, step, "video.completed");
		return { status: outcome.status, clips: outcome.clips };
	}
}

/** The steps, in order. */
async function processVideo(run: VideoRun, step: WorkflowStep) {
	const video = await step.do("load video", DB_STEP, () => loadVideo(run));
	if (video.status === "completed" || video.status === "failed") return { status: video.status, clips: 0, notify: false };
	const { config } = video;

	await step.do("download source", DOWNLOAD_STEP, () => downloadSource(run, video));
	const source = await step.do("upload source", DOWNLOAD_STEP, () => uploadSource(run, video));
	const chunks = await step.do("extract audio", RENDER_STEP, () => extractAudio(run, video, source.key));
	await Promise.all(
		chunks.map((chunk) => step.do(`transcribe chunk ${chunk.index + 1} of ${chunks.length}`, TRANSCRIBE_STEP, () => transcribeChunk(run, video, chunk, chunks.length))),
	);
	const transcript = await step.do("merge transcript", DB_STEP, () => mergeTranscript(run, video, chunks));

	let clipIds: string[] = [];
	if (!config.skipClipping) {
		const signals = await step.do("compute signals", RENDER_STEP, () => computeSignals(run, video, source.key));
		clipIds = (await step.do("rank moments", RANK_STEP, () => rankMoments(run, video, transcript.key, signals))).clipIds;
	}

	const look: RenderLook = { watermark: null, backgroundKey: null };
	if (config.enableWatermark && clipIds.length > 0) look.watermark = await step.do("prepare the watermark", DB_STEP, () => prepareWatermark(run, video));
	if (config.enableSplitScreen && clipIds.length > 0) look.backgroundKey = await step.do("prepare the split-screen background", RENDER_STEP, () => prepareBackground(run, video));
	if (config.enableCaptions && clipIds.length > 0) look.captions = await step.do("prepare the caption look", DB_STEP, () => prepareCaptionLook(run, video));
	await inPool(clipIds, RENDER_PARALLELISM, (clipId, n) => {
		const job = { clipId, sourceKey: source.key, transcriptKey: transcript.key, look, total: clipIds.length, affinity: `${run.videoId}:render:${n % RENDER_INSTANCES_PER_VIDEO}` };
		return step.do(`render clip ${n + 1} of ${clipIds.length}`, RENDER_STEP, () => renderClip(run, video, job));
	});

	await step.do("finish", DB_STEP, () => finish(run, clipIds.length));
	return { status: "completed", clips: clipIds.length, notify: true };
}

/** Runs `work` over `items` with at most `size` in flight, starting the next as soon as one ends (not in lock-step batches). */
async function inPool<T>(items: T[], size: number, work: (item: T, index: number) => Promise<unknown>): Promise<void> {
	let next = 0;
	const lane = async () => {
		while (next < items.length) {
			const index = next++;
			await work(items[index]!, index);
		}
	};
	await Promise.all(Array.from({ length: Math.min(size, items.length) }, lane));
}

/** Sends the event to the video's webhook, if any; a receiver that keeps failing never changes the video's outcome. */
async function notify(run: VideoRun, step: WorkflowStep, event: WebhookEvent): Promise<void> {
	try {
		await step.do(`deliver ${event} webhook`, WEBHOOK_STEP, () => deliverEvent(run, event));
	} catch {
		// Every attempt is recorded in webhook_deliveries; nothing more to do.
	}
}
