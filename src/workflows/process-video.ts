/**
 * ProcessVideoWorkflow: one durable instance per video (instance id = video id).
 *
 * downloading → uploading → transcribing → analyzing → generating_clips → completed, or failed with
 * an errorMessage and the minutes refunded. Every step has a fixed name, is safe to repeat (status
 * writes are guarded, R2 keys are fixed, finished work is detected and skipped), and returns only
 * small values (keys, counts). Permanent failures throw NonRetryableError so no retry is wasted.
 */
import type { AudioSignals, JobName, JobRequest, JobResult, RenderClipRequest, TranscribeResult } from "@clipforge/contract";
import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep, type WorkflowStepConfig } from "cloudflare:workers";
import { NonRetryableError } from "cloudflare:workflows";
import { frameOf, VideoConfigInput, type VideoConfig } from "../worker/domain/video-config";
import { getDb } from "../worker/db/client";
import { settingsOf } from "../worker/settings";
import { resolveBackground } from "../worker/services/media-library";
import { createLlm } from "../worker/services/ranking/llm";
import { rankMoments } from "../worker/services/ranking/rank-moments";
import { r2Keys } from "../worker/services/r2-keys";
import { createRenderClient, RenderTierError } from "../worker/services/render-client";
import { signInternalObjectUrl } from "../worker/services/signing";
import { createTranscriber } from "../worker/services/transcription/transcriber";
import { mergeChunkTranscripts, planAudioChunks, type Transcript } from "../worker/services/transcription/transcript";
import { enterStage, markCompleted, markFailedAndRefund, raiseProgress } from "../worker/services/video-state";
import { deleteVideoArtifacts, deletePrefixes } from "../worker/services/video-cleanup";
import { deliverWebhook, webhookTarget, type WebhookEvent } from "../worker/services/webhooks";
import { progressAt } from "../worker/domain/progress";
import { throttled } from "./progress";

export interface ProcessVideoParams {
	videoId: string;
}

const DB_STEP: WorkflowStepConfig = { retries: { limit: 5, delay: "2 seconds", backoff: "exponential" }, timeout: "2 minutes" };
const RENDER_STEP: WorkflowStepConfig = { retries: { limit: 3, delay: "10 seconds", backoff: "exponential" }, timeout: "30 minutes" };
const DOWNLOAD_STEP: WorkflowStepConfig = { retries: { limit: 3, delay: "15 seconds", backoff: "exponential" }, timeout: "2 hours" };
/** Receivers get about a day of retries: 30 s, 1 min, 2 min … (exponential), ten attempts. */
const WEBHOOK_STEP: WorkflowStepConfig = { retries: { limit: 9, delay: "30 seconds", backoff: "exponential" }, timeout: "1 minute" };
const TRANSCRIBE_STEP: WorkflowStepConfig = { retries: { limit: 4, delay: "10 seconds", backoff: "exponential" }, timeout: "30 minutes" };

/** Clips rendered at once. The local tier has two cores; production spreads them over instances. */
const RENDER_PARALLELISM = 2;
/**
 * Container instances one video's renders are spread over. Renders read the source from R2, so
 * any instance can take one; download and upload stay on the video's own instance (its disk).
 */
const RENDER_INSTANCES_PER_VIDEO = 4;
const DEFAULT_WATERMARK = "clipforge";

interface LoadedVideo {
	status: string;
	duration: number;
	config: VideoConfig;
	sourceUrl: string;
	workspaceId: string;
}

/** What every clip of a video is rendered with, decided once (small: keys, not bytes). */
interface RenderLook {
	watermark: { kind: "text"; text: string } | { kind: "image"; key: string } | null;
	backgroundKey: string | null;
}

export class ProcessVideoWorkflow extends WorkflowEntrypoint<Env, ProcessVideoParams> {
	async run(event: WorkflowEvent<ProcessVideoParams>, step: WorkflowStep) {
		const { videoId } = event.payload;
		let outcome: Awaited<ReturnType<ProcessVideoWorkflow["process"]>>;
		try {
			outcome = await this.process(videoId, step);
		} catch (error) {
			const message = failureMessage(error);
			await step.do("mark video failed and refund minutes", DB_STEP, async () => {
				await markFailedAndRefund(this.env.DB, videoId, message);
				// Nothing half-made stays behind: no clip rows without files, no orphan objects.
				await deleteVideoArtifacts(this.env, videoId);
				return { failed: true };
			});
			await this.notify(step, videoId, "video.failed");
			throw new NonRetryableError(message);
		}
		if (outcome.notify) await this.notify(step, videoId, "video.completed");
		return { status: outcome.status, clips: outcome.clips };
	}

	/** Sends the event to the video's webhook, if any; a receiver that keeps failing never changes the video's outcome. */
	private async notify(step: WorkflowStep, videoId: string, event: WebhookEvent): Promise<void> {
		try {
			await step.do(`deliver ${event} webhook`, WEBHOOK_STEP, async () => {
				const target = await webhookTarget(this.env.DB, videoId, event);
				if (target) await deliverWebhook(this.env.DB, videoId, target);
				return { sent: target !== null };
			});
		} catch {
			// Every attempt is recorded in webhook_deliveries; nothing more to do.
		}
	}

	private async process(videoId: string, step: WorkflowStep) {
		const db = this.env.DB;
		const video = await step.do("load video", DB_STEP, () => loadVideo(db, videoId));
		if (video.status === "completed" || video.status === "failed") return { status: video.status, clips: 0, notify: false };
		const { config } = video;

		await step.do("download source", DOWNLOAD_STEP, async () => {
			await enterStage(db, videoId, "downloading", 0);
			const report = throttled((v) => raiseProgress(db, videoId, v));
			return this.renderJob("Downloading the source", videoId, "download", { videoId, url: video.sourceUrl }, (f) =>
				report(progressAt("downloading", f)),
			);
		});

		const source = await step.do("upload source", DOWNLOAD_STEP, async () => {
			await enterStage(db, videoId, "uploading", progressAt("uploading", 0));
			const key = r2Keys.source(videoId);
			let bytes = (await this.env.MEDIA.head(key))?.size;
			if (bytes === undefined) {
				const putUrl = await signInternalObjectUrl(this.env, key, "PUT");
				const report = throttled((v) => raiseProgress(db, videoId, v));
				const result = await this.renderJob("Storing the source", videoId, "uploadSource", { videoId, url: video.sourceUrl, putUrl }, (f) =>
					report(progressAt("uploading", f)),
				);
				bytes = result.bytes;
			}
			await db.prepare("UPDATE videos SET source_key = ?2 WHERE id = ?1").bind(videoId, key).run();
			return { key, bytes };
		});

		const frame = frameOf(config, video.duration);
		const chunks = await step.do("extract audio", RENDER_STEP, async () => {
			await enterStage(db, videoId, "transcribing", progressAt("transcribing", 0));
			const plan = planAudioChunks(frame.start, frame.end, settingsOf(this.env).audioChunkSeconds);
			const sourceUrl = await signInternalObjectUrl(this.env, source.key, "GET");
			const specs = await Promise.all(plan.map(async (c) => ({ ...c, putUrl: await signInternalObjectUrl(this.env, r2Keys.audioChunk(videoId, c.index), "PUT") })));
			const report = throttled((v) => raiseProgress(db, videoId, v));
			await this.renderJob("Extracting the audio", videoId, "extractAudio", { videoId, sourceUrl, chunks: specs }, (f) =>
				report(progressAt("transcribing", f * 0.15)),
			);
			return plan;
		});

		const transcriber = createTranscriber(this.env);
		await Promise.all(
			chunks.map((chunk) =>
				step.do(`transcribe chunk ${chunk.index + 1} of ${chunks.length}`, TRANSCRIBE_STEP, async () => {
					const key = r2Keys.transcriptChunk(videoId, chunk.index);
					if (!(await this.env.MEDIA.head(key))) {
						// Chunks run in parallel: each reports its own share of the band (progress only rises).
						const report = throttled((v) => raiseProgress(db, videoId, v));
						const share = (f: number) => report(progressAt("transcribing", 0.15 + (0.8 * (chunk.index + f)) / chunks.length));
						const result = await this.transcribe(() => transcriber.transcribeChunk({ videoId, key: r2Keys.audioChunk(videoId, chunk.index) }, config.language, share));
						await this.env.MEDIA.put(key, JSON.stringify(result), { httpMetadata: { contentType: "application/json" } });
					}
					const done = (await this.env.MEDIA.list({ prefix: `transcripts/${videoId}/` })).objects.length;
					await raiseProgress(db, videoId, progressAt("transcribing", 0.15 + 0.8 * (done / chunks.length)));
					return { key };
				}),
			),
		);

		const transcriptInfo = await step.do("merge transcript", DB_STEP, async () => {
			const parts = await Promise.all(
				chunks.map(async (plan) => ({ plan, result: await this.readJson<TranscribeResult>(r2Keys.transcriptChunk(videoId, plan.index)) })),
			);
			const transcript = mergeChunkTranscripts(parts, video.duration);
			if (transcript.words.length === 0) {
				throw new NonRetryableError("No speech was found in the video (or in its time frame), so there is nothing to transcribe or clip. The minutes were refunded.");
			}
			const key = r2Keys.transcript(videoId);
			await this.env.MEDIA.put(key, JSON.stringify(transcript), { httpMetadata: { contentType: "application/json" } });
			await db.prepare("UPDATE videos SET transcript_key = ?2, language = ?3 WHERE id = ?1").bind(videoId, key, transcript.language).run();
			await raiseProgress(db, videoId, progressAt("transcribing", 1));
			return { key, words: transcript.words.length, language: transcript.language };
		});

		let clipIds: string[] = [];
		if (!config.skipClipping) {
			const signals = await step.do("compute signals", RENDER_STEP, async () => {
				await enterStage(db, videoId, "analyzing", progressAt("analyzing", 0));
				const key = r2Keys.signals(videoId);
				const [sourceUrl, putUrl] = await Promise.all([signInternalObjectUrl(this.env, source.key, "GET"), signInternalObjectUrl(this.env, key, "PUT")]);
				const report = throttled((v) => raiseProgress(db, videoId, v));
				const result = await this.renderJob("Measuring the audio", videoId, "signals", { videoId, sourceUrl, duration: video.duration, putUrl }, (f) =>
					report(progressAt("analyzing", f * 0.6)),
				);
				return { key, intervals: result.intervals };
			});

			const ranked = await step.do("rank moments", DB_STEP, async () => {
				await enterStage(db, videoId, "analyzing", progressAt("analyzing", 0));
				const transcript = await this.readJson<Transcript>(transcriptInfo.key);
				const audio = signals.intervals > 0 ? await this.readJson<AudioSignals>(signals.key) : null;
				const { clips, rankedBy } = await rankMoments(transcript, config, audio, createLlm(this.env));
				const workspaceId = await db.prepare("SELECT workspace_id AS w FROM videos WHERE id = ?").bind(videoId).first<string>("w");
				const ids = clips.map((_, n) => `${videoId.replace(/^vid_/, "clp_")}_${n + 1}`);
				// Replace, not append: a repeated step leaves exactly this ranking.
				await db.batch([
					db.prepare("DELETE FROM clips WHERE video_id = ?1").bind(videoId),
					...clips.map((clip, n) =>
						db
							.prepare(
								`INSERT INTO clips (id, video_id, workspace_id, position, title, hook_title, start_time, end_time, duration, score, virality_reason, score_breakdown, transcript, status, aspect_ratio)
								 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, 'queued', ?14)`,
							)
							.bind(ids[n], videoId, workspaceId, n, clip.title, clip.hookTitle, clip.start, clip.end, Math.round((clip.end - clip.start) * 100) / 100, clip.score, clip.viralityReason, JSON.stringify(clip.scoreBreakdown), clip.transcript, config.aspectRatio),
					),
					db.prepare("UPDATE videos SET ranked_by = ?2 WHERE id = ?1").bind(videoId, rankedBy),
				]);
				await raiseProgress(db, videoId, progressAt("analyzing", 1));
				return { clipIds: ids };
			});
			clipIds = ranked.clipIds;
		}

		const look: RenderLook = { watermark: null, backgroundKey: null };
		if (config.enableWatermark && clipIds.length > 0) {
			look.watermark = await step.do("prepare the watermark", DB_STEP, () => this.prepareWatermark(videoId, video.workspaceId));
		}
		if (config.enableSplitScreen && clipIds.length > 0) {
			look.backgroundKey = await step.do("prepare the split-screen background", RENDER_STEP, async () => {
				const background = await resolveBackground(getDb(this.env), video.workspaceId, config, videoId).catch((error: unknown) => {
					throw new NonRetryableError(`The split-screen background is not available: ${(error as Error).message}`);
				});
				if (!background) return null;
				if (background.builtIn && !(await this.env.MEDIA.head(background.objectKey))) {
					// The built-in library is drawn on first use and kept in R2 for every later video.
					const putUrl = await signInternalObjectUrl(this.env, background.objectKey, "PUT");
					await this.renderJob("Drawing the split-screen background", `background:${background.id}`, "makeBackground", { backgroundId: background.id as JobRequest<"makeBackground">["backgroundId"], putUrl });
				} else if (!(await this.env.MEDIA.head(background.objectKey))) {
					throw new NonRetryableError(`The split-screen background ${background.id} was deleted.`);
				}
				return background.objectKey;
			});
		}
		for (let first = 0; first < clipIds.length; first += RENDER_PARALLELISM) {
			await Promise.all(
				clipIds.slice(first, first + RENDER_PARALLELISM).map((clipId, offset) =>
					step.do(`render clip ${first + offset + 1} of ${clipIds.length}`, RENDER_STEP, () =>
						this.renderOneClip(videoId, clipId, source.key, transcriptInfo.key, config, look, clipIds.length, `${videoId}:render:${(first + offset) % RENDER_INSTANCES_PER_VIDEO}`),
					),
				),
			);
		}

		await step.do("finish", DB_STEP, async () => {
			await markCompleted(db, videoId);
			// Intermediate audio and per-chunk transcripts are not needed once merged.
			await deletePrefixes(this.env.MEDIA, [`audio/${videoId}/`, `transcripts/${videoId}/`]);
			// Best effort: the tier's scratch files also expire with the instance.
			await createRenderClient(this.env, videoId).run("cleanup", { videoId }).catch(() => undefined);
			return { clips: clipIds.length };
		});
		return { status: "completed", clips: clipIds.length, notify: true };
	}

	private async renderOneClip(videoId: string, clipId: string, sourceKey: string, transcriptKey: string, config: VideoConfig, look: RenderLook, total: number, affinity: string) {
		const db = this.env.DB;
		await enterStage(db, videoId, "generating_clips", progressAt("generating_clips", 0));
		const clip = await db
			.prepare("SELECT start_time AS start, end_time AS end, status, hook_title AS hookTitle FROM clips WHERE id = ?")
			.bind(clipId)
			.first<{ start: number; end: number; status: string; hookTitle: string | null }>();
		if (!clip) throw new NonRetryableError(`Clip ${clipId} disappeared before rendering.`);
		const videoKey = r2Keys.clipVideo(videoId, clipId);
		const thumbnailKey = r2Keys.clipThumbnail(videoId, clipId);
		if (clip.status === "completed" && (await this.env.MEDIA.head(videoKey))) return { clipId, videoKey };

		const [sourceUrl, videoPutUrl, thumbnailPutUrl, watermark, splitScreen] = await Promise.all([
			signInternalObjectUrl(this.env, sourceKey, "GET"),
			signInternalObjectUrl(this.env, videoKey, "PUT"),
			signInternalObjectUrl(this.env, thumbnailKey, "PUT"),
			look.watermark?.kind === "image"
				? signInternalObjectUrl(this.env, look.watermark.key, "GET").then((imageUrl) => ({ kind: "image" as const, imageUrl }))
				: Promise.resolve(look.watermark),
			look.backgroundKey
				? signInternalObjectUrl(this.env, look.backgroundKey, "GET").then((backgroundUrl) => ({ backgroundUrl, backgroundKey: look.backgroundKey!, ratio: config.splitRatio }))
				: Promise.resolve(null),
		]);
		const captions = config.enableCaptions
			? { style: config.captionTemplateId, words: wordsWithin((await this.readJson<Transcript>(transcriptKey)).words, clip.start, clip.end) }
			: null;
		const doneBefore = await completedClips(db, videoId);
		const report = throttled((v) => raiseProgress(db, videoId, v));
		const result = await this.renderJob(
			"Rendering a clip",
			affinity,
			"renderClip",
			{
				videoId, clipId, sourceUrl, start: clip.start, end: clip.end, aspectRatio: config.aspectRatio, videoPutUrl, thumbnailPutUrl,
				captions, hookTitle: config.enableIntroTitle ? clip.hookTitle : null, watermark, splitScreen, smartCrop: config.enableSmartCrop,
			} satisfies RenderClipRequest,
			(f) => report(progressAt("generating_clips", (doneBefore + f) / total)),
		);
		await db
			.prepare("UPDATE clips SET status = 'completed', video_key = ?2, thumbnail_key = ?3, bytes = ?4 WHERE id = ?1")
			.bind(clipId, videoKey, thumbnailKey, result.bytes)
			.run();
		await raiseProgress(db, videoId, progressAt("generating_clips", (await completedClips(db, videoId)) / total));
		return { clipId, videoKey };
	}

	/**
	 * The workspace's mark as it is now. An image is copied next to the video's clips, so a mark
	 * replaced (and deleted) while this video renders cannot break it; it goes with the video.
	 */
	private async prepareWatermark(videoId: string, workspaceId: string): Promise<RenderLook["watermark"]> {
		const row = await this.env.DB.prepare("SELECT watermark_text AS text, watermark_image_key AS imageKey FROM workspaces WHERE id = ?")
			.bind(workspaceId)
			.first<{ text: string | null; imageKey: string | null }>();
		const copy = row?.imageKey ? await this.env.MEDIA.get(row.imageKey) : null;
		if (!copy) return { kind: "text", text: row?.text ?? DEFAULT_WATERMARK };
		const key = r2Keys.clipWatermark(videoId);
		await this.env.MEDIA.put(key, copy.body, { httpMetadata: { contentType: "image/png" } });
		return { kind: "image", key };
	}

	/**
	 * A render-tier job whose failure becomes a sentence a user can read, retryable or not.
	 * `affinity` picks the container instance (the video id for work that needs its local source).
	 */
	private async renderJob<N extends JobName>(what: string, affinity: string, name: N, request: JobRequest<N>, onProgress?: (f: number) => Promise<void>): Promise<JobResult<N>> {
		try {
			return await createRenderClient(this.env, affinity).run(name, request, { onProgress });
		} catch (error) {
			if (!(error instanceof RenderTierError)) throw error;
			const message = `${what} failed: ${error.message}`;
			throw error.retryable ? new Error(message) : new NonRetryableError(message);
		}
	}

	private async transcribe<T>(run: () => Promise<T>): Promise<T> {
		try {
			return await run();
		} catch (error) {
			if (error instanceof RenderTierError && !error.retryable) throw new NonRetryableError(`Transcription failed: ${error.message}`);
			throw new Error(`Transcription failed: ${(error as Error).message}`);
		}
	}

	private async readJson<T>(key: string): Promise<T> {
		const object = await this.env.MEDIA.get(key);
		if (!object) throw new NonRetryableError(`Stored object ${key} is missing.`);
		return (await object.json()) as T;
	}
}

/** The clip's words, with times from the clip's start (what its captions show). */
function wordsWithin(words: Transcript["words"], start: number, end: number) {
	return words.filter((w) => w.end > start && w.start < end).map((w) => ({ word: w.word, start: Math.max(0, w.start - start), end: Math.min(end, w.end) - start }));
}

async function loadVideo(db: D1Database, videoId: string): Promise<LoadedVideo> {
	const row = await db
		.prepare(
			"SELECT status, duration, config, source_url AS sourceUrl, workspace_id AS workspaceId FROM videos WHERE id = ?",
		)
		.bind(videoId)
		.first<Omit<LoadedVideo, "config"> & { config: string | null }>();
	if (!row) throw new NonRetryableError(`Video ${videoId} does not exist.`);
	if (!row.config) throw new NonRetryableError("The video has no config yet.");
	return { ...row, config: VideoConfigInput.parse(JSON.parse(row.config)) };
}

async function completedClips(db: D1Database, videoId: string): Promise<number> {
	return (await db.prepare("SELECT COUNT(*) AS n FROM clips WHERE video_id = ? AND status = 'completed'").bind(videoId).first<number>("n")) ?? 0;
}

/** The sentence stored as errorMessage: the cause, without runtime prefixes. */
function failureMessage(error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	return message.replace(/^(NonRetryableError|Error):\s*/, "") || "Processing failed.";
}
