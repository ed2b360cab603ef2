/**
 * What every step body works with: the video being processed and its bindings, plus the helpers
 * they share (render-tier jobs as readable failures, stored JSON).
 */
import type { JobName, JobRequest, JobResult, SourceLimits } from "@clipforge/contract";
import { NonRetryableError } from "cloudflare:workflows";
import { getDb, type Db } from "../../worker/db/client";
import { logger, type Logger } from "../../worker/lib/log";
import { OutgoingSlots, SLOW_CALL_SLOTS, withOutgoingSlots } from "../../worker/lib/outgoing-slots";
import { findVideoById, type TranscriptRecord } from "../../worker/db/videos";
import { r2Keys } from "../../worker/services/r2-keys";
import { planOf } from "../../worker/db/workspaces";
import { sourceLimitsFor } from "../../worker/settings";
import { VideoConfigInput, type VideoConfig } from "../../worker/domain/video-config";
import { createRenderClient, RenderTierError } from "../../worker/services/render-client";
import type { RenderInstance } from "../../worker/services/render-instances";

/** One workflow run: the video it processes, with the Worker's bindings. */
export interface VideoRun {
	/** The bindings, with Workers AI and render-tier calls taking a slot of `slots` first. */
	env: Env;
	db: Db;
	videoId: string;
	/**
	 * The run's share of the invocation's six outgoing connections (lib/outgoing-slots.ts): the
	 * steps a run has going at once (chunks, renders, the ranking's and the chapters' model calls)
	 * are one invocation, so they take turns here instead of in the runtime's queue.
	 */
	slots: OutgoingSlots;
	/** The run's logger (lib/log.ts): its video and instance, and its workspace once the video is loaded (withWorkspace). */
	log: Logger;
}

export function videoRun(env: Env, videoId: string, instanceId: string): VideoRun {
	const slots = new OutgoingSlots(SLOW_CALL_SLOTS);
	const log = logger({ videoId, instanceId });
	// Steps are retried whole, so each of their writes is safe to apply twice: the seam retries them alone (d1-retry.ts).
	return { env: withOutgoingSlots(env, slots), db: getDb(env, { idempotentWrites: true }), videoId, slots, log };
}

/** The run's logs carry the video's workspace from here on (its first step loads it). */
export function withWorkspace(run: VideoRun, workspaceId: string): void {
	run.log = run.log.with({ workspaceId });
}

/** The video as the workflow reads it once, at its first step. */
export interface LoadedVideo {
	status: string;
	duration: number;
	config: VideoConfig;
	sourceUrl: string;
	/** `upload`: the source is already stored (POST /api/videos/upload); absent in runs loaded before uploads existed (hosted). */
	sourceType?: "hosted" | "upload";
	workspaceId: string;
	/** What the tier may download for it (the plan's limits, else the operator's); absent in runs loaded before it existed. */
	sourceLimits?: SourceLimits;
	/** Where its words come from, the subtitle track to fetch, and their language; absent in runs loaded before captions existed (transcription). */
	transcript?: TranscriptRecord;
}

export async function loadVideo(run: VideoRun): Promise<LoadedVideo> {
	const row = await findVideoById(run.db, run.videoId);
	if (!row) throw new NonRetryableError(`Video ${run.videoId} does not exist.`);
	if (!row.config) throw new NonRetryableError("The video has no config yet.");
	const plan = await planOf(run.db, row.workspaceId);
	return {
		status: row.status,
		duration: row.duration,
		config: VideoConfigInput.parse(row.config),
		sourceUrl: row.sourceUrl,
		sourceType: row.sourceType === "upload" ? "upload" : "hosted",
		workspaceId: row.workspaceId,
		sourceLimits: sourceLimitsFor(run.env, plan),
		transcript: { source: row.transcriptSource, subtitleTrack: row.subtitleTrack, language: row.language },
	};
}

/**
 * The kept source: its key, and where it begins in the source (it is kept cut to the time frame:
 * domain/sources.ts). Read from the row at each step, which the download step writes before
 * anything reads the file (a run started before cuts existed reads 0: its source is whole).
 */
export async function storedSource(run: VideoRun): Promise<{ key: string; start: number }> {
	const row = await findVideoById(run.db, run.videoId);
	return { key: row?.sourceKey ?? r2Keys.source(run.videoId), start: row?.sourceStart ?? 0 };
}

/**
 * A running job's progress, 0..1 of its own work: the step runner (staged-steps.ts) hands a step's
 * body one already placed in the step's part of the band, so a body never writes progress itself.
 */
export type StepProgressReport = (fraction: number) => Promise<void>;

/**
 * A render-tier job whose failure becomes a sentence a user can read, retryable or not.
 * `instance` picks the container instance (the video's own for work that needs its local source).
 */
export async function renderJob<N extends JobName>(
	run: VideoRun,
	what: string,
	instance: RenderInstance,
	name: N,
	request: JobRequest<N>,
	onProgress?: (f: number) => Promise<void>,
): Promise<JobResult<N>> {
	try {
		return await createRenderClient(run.env, instance).run(name, request, { onProgress });
	} catch (error) {
		if (!(error instanceof RenderTierError)) throw error;
		const message = `${what} failed: ${error.message}`;
		throw error.retryable ? new Error(message) : new NonRetryableError(message);
	}
}

export async function readJson<T>(run: VideoRun, key: string): Promise<T> {
	const object = await run.env.MEDIA.get(key);
	if (!object) throw new NonRetryableError(`Stored object ${key} is missing.`);
	return (await object.json()) as T;
}

export async function putJson(run: VideoRun, key: string, value: unknown): Promise<void> {
	await run.env.MEDIA.put(key, JSON.stringify(value), { httpMetadata: { contentType: "application/json" } });
}
