/**
 * POST /api/videos/hosted and /api/videos/upload as a sequence of checks, cheapest first, so a
 * refused submission never costs a probe, and nothing is charged unless the video row exists.
 */
import type { Db } from "../db/client";
import { createChargedVideo } from "../db/videos";
import { keyedSubmission } from "./idempotency";
import { projectExists } from "../db/library";
import { submissionStanding } from "../db/submission-standing";
import { activePlan } from "./active-plan";
import { ApiError } from "../errors";
import { minutesFor } from "../domain/minutes";
import { boundedProbe } from "../domain/video-info";
import type { VideoConfig } from "../domain/video-config";
import { assertCaptionTemplate } from "./caption-templates";
import { assertBackgroundChoice, assertTimeframeInside, startProcessing } from "./configure-video";
import { newId } from "./crypto";
import { RenderTierError, type RenderClient } from "./render-client";
import { queueFull, slotRulesFor } from "./processing-slots";
import { parseSourceUrl } from "./source-url";
import { sourceLimitsFor } from "../settings";
import { findUpload } from "../db/uploads";
import { signInternalObjectUrl } from "./signing";
import { WORKSPACE_JOB_LIMITS, type JobRequest, type ProbeResult, type SourceLimits } from "@clipforge/contract";
import { r2Keys } from "./r2-keys";
import { readSuppliedCaptions, type SuppliedCaptions } from "./supplied-captions";
import { transcriptRecordFor } from "./transcript-plan";

export interface SubmitInput {
	workspaceId: string;
	hostedUrl: string;
	config: VideoConfig | null;
	projectId: string | null;
	webhookUrl: string | null;
	/** The request's: when its client goes, the probe stops (the tier drops a probe nobody waits for). */
	signal?: AbortSignal;
	/** Captions that replace transcription (SRT or WebVTT, by URL or inline). */
	captions?: SuppliedCaptions | null;
}

/** The probe answers synchronously; past this the submission is refused with 503, nothing charged. */
const PROBE_TIMEOUT_MS = 30_000;

export async function submitHostedVideo(env: Env, db: Db, render: RenderClient, input: SubmitInput) {
	const earlier = keyedSubmission()?.videoId;
	if (earlier) return earlierSubmission(env, db, earlier, input);
	const url = parseSourceUrl(input.hostedUrl, env);
	return submitVideo(env, db, render, input, {
		sourceUrl: url.toString(),
		probe: (limits) => probe(render, { url: url.toString(), limits, workspaceId: input.workspaceId }, input.signal),
		videoId: newId("vid"),
	});
}

export interface SubmitUploadInput extends Omit<SubmitInput, "hostedUrl"> {
	uploadId: string;
}

/**
 * POST /api/videos/upload: the same checks and charge as a hosted URL, with the probe reading the
 * stored upload through a signed internal URL. The video takes the id the upload reserved (its
 * file is already at that video's source key), and claims the upload in its charge batch.
 */
export async function submitUploadedVideo(env: Env, db: Db, render: RenderClient, input: SubmitUploadInput) {
	const earlier = keyedSubmission()?.videoId;
	if (earlier) return earlierSubmission(env, db, earlier, input);
	const upload = await findUpload(db, input.uploadId, [input.workspaceId]);
	if (!upload) throw new ApiError("not_found", `Upload ${input.uploadId} was not found.`);
	if (upload.status === "uploading")
		throw new ApiError(
			"conflict",
			`Upload ${upload.id} is not completed; send its missing parts, then POST /api/uploads/${upload.id}/complete.`,
		);
	if (upload.status === "used")
		throw new ApiError("conflict", `Upload ${upload.id} was already submitted as video ${upload.videoId}.`, {
			videoId: upload.videoId,
		});
	return submitVideo(env, db, render, input, {
		sourceUrl: `upload://${upload.id}`,
		uploadId: upload.id,
		videoId: upload.videoId,
		probe: async (limits) => {
			const url = await signInternalObjectUrl(env, upload.objectKey, "GET");
			const request = { url, limits, workspaceId: input.workspaceId, upload: true };
			const info = await probe(render, request, input.signal, "The uploaded file");
			// What the file itself says of a title or channel is the internal URL's: the user's file name is the better title.
			return boundedProbe({
				...info,
				id: upload.id,
				title: titleFromFileName(upload.fileName),
				thumbnail: "",
				channelName: "Upload",
			});
		},
	});
}

interface SourceOf {
	sourceUrl: string;
	videoId: string;
	uploadId?: string;
	probe: (limits: SourceLimits) => Promise<ProbedVideo>;
}

type ProbedVideo = ProbeResult;

async function submitVideo(
	env: Env,
	db: Db,
	render: RenderClient,
	input: Omit<SubmitInput, "hostedUrl">,
	source: SourceOf,
) {
	const webhookUrl = input.webhookUrl ? parseSourceUrl(input.webhookUrl, env, "webhookUrl").toString() : null;
	// The workspace's plan, balance and queue in one read; its refusals still come after the references' 404s.
	const standing = await submissionStanding(db, input.workspaceId);
	await assertReferencesInWorkspace(db, input);
	const plan = activePlan(standing.plan);
	if (standing.balance <= 0) throw insufficient(1, standing.balance);
	// Cheap first look (the charge's batch checks again, atomically): a full queue costs no probe.
	const slots = input.config ? slotRulesFor(env, standing.plan) : null;
	if (slots && standing.waiting >= slots.maxWaiting) throw queueFull(slots);

	// Captions are read before the probe: a file that is not captions costs no probe.
	const captions = input.captions ? await readSuppliedCaptions(env, input.captions) : null;
	await assertProbeRoom(env, input.workspaceId);
	const info = await source.probe(sourceLimitsFor(env, plan));
	assertProcessable(info, plan, input.config);
	const transcriptInputs = {
		captions: { supplied: captions !== null, language: captions?.language ?? null },
		sourceSubtitles: { tracks: info.subtitles, language: info.language },
	};
	const transcript = input.config
		? transcriptRecordFor(env, input.config, transcriptInputs)
		: captions
			? { source: "captions" as const, subtitleTrack: null, language: captions.language }
			: undefined;

	const cost = minutesFor(info.duration, input.config);
	const videoId = source.videoId;
	const captionsKey = r2Keys.suppliedCaptions(videoId);
	if (captions) await env.MEDIA.put(captionsKey, JSON.stringify(captions.cues));
	const created = await createChargedVideo(
		db,
		{
			id: videoId,
			workspaceId: input.workspaceId,
			projectId: input.projectId,
			sourceUrl: source.sourceUrl,
			title: info.title,
			status: input.config ? "downloading" : "pending_config",
			config: input.config,
			sourceVideoId: info.id,
			duration: info.duration,
			thumbnail: info.thumbnail,
			channelName: info.channelName,
			minutesCharged: cost,
			webhookUrl,
			uploadId: source.uploadId,
			transcript,
			sourceSubtitles: transcriptInputs.sourceSubtitles,
		},
		slots,
		keyedSubmission()?.key ?? null,
	);
	// Refused: the captions stored for it belong to no video.
	if (captions && created.outcome !== "created") await env.MEDIA.delete(captionsKey);
	if (created.outcome === "queue_full") throw queueFull(slots!);
	if (created.outcome === "insufficient") throw insufficient(cost, created.balance);
	if (created.outcome === "upload_taken")
		throw new ApiError("conflict", `Upload ${source.uploadId} was just submitted by another request (or deleted).`);

	if (input.config) await startProcessing(env, db, videoId);
	return { videoId };
}

/**
 * The video an earlier request with the same Idempotency-Key made (its answer was lost): that one,
 * its processing started if that request died between its charge and the start. Starting is
 * idempotent (the instance id is the video's), so a video already processing is left as it is.
 */
async function earlierSubmission(env: Env, db: Db, videoId: string, input: Pick<SubmitInput, "config">) {
	if (input.config) await startProcessing(env, db, videoId);
	return { videoId };
}

/** The project, background and caption template the submission names are the workspace's own. */
async function assertReferencesInWorkspace(db: Db, input: Omit<SubmitInput, "hostedUrl">): Promise<void> {
	if (input.projectId) await assertProjectInWorkspace(db, input.projectId, input.workspaceId);
	if (input.config) await assertBackgroundChoice(db, input.workspaceId, input.config, "");
	if (input.config) await assertCaptionTemplate(db, input.workspaceId, input.config);
}

/** What the probe found must be clippable within the plan: audio, a length it allows, the time frame inside it. */
function assertProcessable(info: ProbedVideo, plan: { maxVideoSeconds: number }, config: VideoConfig | null): void {
	if (!info.hasAudio) {
		throw new ApiError(
			"unsupported_source",
			"The video has no audio track: clipforge finds clips in what is said. Nothing was charged.",
		);
	}
	if (info.duration > plan.maxVideoSeconds) {
		throw new ApiError(
			"video_too_long",
			`The video is ${formatDuration(info.duration)} long; your plan allows up to ${formatDuration(plan.maxVideoSeconds)}.`,
			{ duration: info.duration, maxDuration: plan.maxVideoSeconds },
		);
	}
	if (config) assertTimeframeInside(config, info.duration);
}

/** The PROBE_LIMITER binding's period (wrangler.toml): when a refused burst may try again. */
const PROBE_PERIOD_SECONDS = 10;

/**
 * Every submission's probe is a job on the probe instances all tenants share: a workspace's burst
 * past its share (PROBE_LIMITER, per workspace) is refused with 429 before probing, so it slows
 * itself and never the others. Probes within it wait briefly in line on a busy tier (PROBE_TIMEOUT_MS).
 */
async function assertProbeRoom(env: Pick<Env, "PROBE_LIMITER">, workspaceId: string): Promise<void> {
	if ((await env.PROBE_LIMITER.limit({ key: `probe:${workspaceId}` })).success) return;
	throw new ApiError(
		"rate_limited",
		`Too many submissions from this workspace at once; retry after ${PROBE_PERIOD_SECONDS} s. Nothing was charged.`,
		{ retryAfter: PROBE_PERIOD_SECONDS },
	);
}

/** "my talk (final).mov" → "my talk (final)". */
function titleFromFileName(name: string): string {
	return name.replace(/\.[A-Za-z0-9]{1,5}$/, "").trim() || name;
}

/**
 * A probe past its workspace's share waits this long for one of the workspace's own probes to end
 * (a burst of submissions is taken a few at a time), then is refused with 429 and this Retry-After.
 */
const PROBE_SHARE_WAIT_MS = 10_000;
const PROBE_SHARE_RETRY_AFTER_SECONDS = 5;

/**
 * The tier probes under the plan's limits: a direct file too large in pixels or bytes is refused
 * here, before any charge. The probe names its workspace: the tier runs at most its share of the
 * probe instance (WORKSPACE_JOB_LIMITS.probe) and refuses the rest with 429, never another's.
 */
async function probe(render: RenderClient, request: JobRequest<"probe">, signal?: AbortSignal, uploaded?: string) {
	try {
		const options = { timeoutMs: PROBE_TIMEOUT_MS, shareWaitMs: PROBE_SHARE_WAIT_MS, signal };
		return boundedProbe(await render.run("probe", request, options));
	} catch (error) {
		if (!(error instanceof RenderTierError)) throw error;
		if (error.code === "workspace_busy")
			throw new ApiError(
				"rate_limited",
				`This workspace's submissions fill its share of the service's probes (${WORKSPACE_JOB_LIMITS.probe} at once) and this one waited ${PROBE_SHARE_WAIT_MS / 1000} s for a turn; retry in a few seconds. Nothing was charged.`,
				{ retryAfter: PROBE_SHARE_RETRY_AFTER_SECONDS, maxConcurrent: WORKSPACE_JOB_LIMITS.probe },
			);
		if (uploaded && (error.code === "unsupported_source" || error.code === "invalid_request")) {
			throw new ApiError(
				"unsupported_source",
				`${uploaded} is not a video clipforge can read (the render tier says: ${error.message.slice(0, 200)}). Nothing was charged.`,
			);
		}
		if (error.code === "invalid_url") throw new ApiError("invalid_url", error.message);
		if (error.code === "unsupported_source" || error.code === "invalid_request")
			throw new ApiError("unsupported_source", error.message);
		throw new ApiError(
			"service_unavailable",
			"The video could not be inspected right now; nothing was charged. Try again shortly.",
			{ cause: error.message },
		);
	}
}

async function assertProjectInWorkspace(db: Db, projectId: string, workspaceId: string): Promise<void> {
	if (!(await projectExists(db, projectId, workspaceId)))
		throw new ApiError("not_found", `Project ${projectId} was not found in this workspace.`);
}

function insufficient(required: number, balance: number): ApiError {
	return new ApiError(
		"insufficient_minutes",
		`This video needs ${required} minute(s); the workspace has ${balance}.`,
		{ required, balance },
	);
}

function formatDuration(seconds: number): string {
	const h = Math.floor(seconds / 3600);
	const m = Math.floor((seconds % 3600) / 60);
	const s = Math.round(seconds % 60);
	return h > 0 ? `${h} h ${m} min` : m > 0 ? `${m} min ${s} s` : `${s} s`;
}
