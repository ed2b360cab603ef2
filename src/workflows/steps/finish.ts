/** Steps "finish", "mark video failed and refund minutes" and "deliver video.… webhook". */
import { findVideoById, markCompleted } from "../../worker/db/videos";
import type { VideoChapters } from "@clipforge/domain";
import { noClipsSettlement } from "../../worker/domain/minutes";
import type { VideoConfig } from "../../worker/domain/video-config";
import { r2Keys } from "../../worker/services/r2-keys";
import { wakeWaiting } from "../../worker/services/processing-slots";
import { createRenderClient } from "../../worker/services/render-client";
import { renderInstance } from "../../worker/services/render-instances";
import { deletePrefixes, deleteVideoArtifacts } from "../../worker/services/video-cleanup";
import { markFailedAndRefund } from "../../worker/services/video-state";
import { deliverWebhook, webhookTarget, type WebhookEvent } from "../../worker/services/webhooks";
import type { VideoRun } from "./run";

export async function finish(
	run: VideoRun,
	video: { workspaceId: string; config: Pick<VideoConfig, "customPrompt" | "skipClipping"> },
	clips: number,
): Promise<{ clips: number }> {
	const noClips = clips === 0 && !video.config.skipClipping ? noClipsSettlement(video.config) : null;
	await markCompleted(run.db, run.videoId, noClips);
	// Its processing slot is free: the next video of the workspace may start.
	await wakeWaiting(run.env, run.db, video.workspaceId);
	// Intermediate audio and per-chunk transcripts are not needed once merged.
	await deletePrefixes(run.env.MEDIA, [`audio/${run.videoId}/`, `transcripts/${run.videoId}/`]);
	return { clips };
}

/**
 * Step "clean up the video's files on the render tier": its folder on its tier instance goes. A
 * refusal throws, so the step is tried again later: an instance that drains refuses new work, and
 * its successor (same folder locally; a fresh disk in production) takes the cleanup a little later.
 */
export async function cleanUpTier(run: VideoRun): Promise<{ cleaned: true }> {
	await createRenderClient(run.env, renderInstance.video(run.env, run.videoId)).run(
		"cleanup",
		{ videoId: run.videoId },
		{ reconnectForMs: 10_000 },
	);
	return { cleaned: true };
}

export async function failAndRefund(run: VideoRun, message: string): Promise<{ failed: true }> {
	const video = await findVideoById(run.db, run.videoId);
	await markFailedAndRefund(run.db, run.videoId, message);
	if (video) await wakeWaiting(run.env, run.db, video.workspaceId);
	// Nothing half-made stays behind: no clip rows without files, no orphan objects (the tier's files go
	// in the workflow's own cleanup step).
	await deleteVideoArtifacts(run.env, run.videoId);
	return { failed: true };
}

export async function deliverEvent(run: VideoRun, event: WebhookEvent): Promise<{ sent: boolean }> {
	const target = await webhookTarget(run.db, run.videoId, event);
	if (target && event === "video.completed") target.payload.chapters = await storedChaptersOf(run);
	if (target) await deliverWebhook(run.db, run.videoId, target, run.env);
	return { sent: target !== null };
}

/** The sentence stored as errorMessage: the cause, without runtime prefixes. */
export function failureMessage(error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	return message.replace(/^(NonRetryableError|Error):\s*/, "") || "Processing failed.";
}

/** How many chapters the video has and who made them, as stored by "find chapters" (null when none are stored). */
async function storedChaptersOf(run: VideoRun): Promise<{ count: number; madeBy: string } | null> {
	const object = await run.env.MEDIA.get(r2Keys.chapters(run.videoId));
	if (!object) return null;
	const stored = (await object.json()) as VideoChapters;
	return { count: stored.chapters.length, madeBy: stored.madeBy };
}
