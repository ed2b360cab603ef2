/**
 * Steps "prepare the watermark" and "prepare the split-screen background": what every clip of the
 * video is drawn with, decided once (small: keys, not bytes).
 */
import { NonRetryableError } from "cloudflare:workflows";
import type { BuiltinBackgroundId, CaptionLook } from "@clipforge/contract";
import { failReprocess, runningReprocessOf } from "../../worker/db/reprocesses";
import { watermarkOf } from "../../worker/db/workspaces";
import { resolveCaptionLook } from "../../worker/services/caption-templates";
import { USER_CAUSED_FAILURES } from "../../worker/domain/minutes";
import { resolveBackground } from "../../worker/services/media-library";
import { r2Keys } from "../../worker/services/r2-keys";
import { renderInstance } from "../../worker/services/render-instances";
import { signInternalObjectUrl } from "../../worker/services/signing";
import { markFailedByUser } from "../../worker/services/video-state";
import { renderJob, type LoadedVideo, type VideoRun } from "./run";

export interface RenderLook {
	watermark: { kind: "text"; text: string } | { kind: "image"; key: string } | null;
	backgroundKey: string | null;
	/** The caption look, resolved once per video ("prepare the caption look"); absent: resolved by the render step. */
	captions?: CaptionLook | null;
}

/**
 * The config's caption template as the look every clip is drawn in, decided once, so a template
 * changed while the video renders cannot give its clips two looks. A deleted template still resolves.
 */
export async function prepareCaptionLook(run: VideoRun, video: LoadedVideo): Promise<CaptionLook> {
	return resolveCaptionLook(run.db, video.workspaceId, video.config.captionTemplateId).catch((error: unknown) => {
		throw new NonRetryableError(`The caption template is not available: ${(error as Error).message}`);
	});
}

const DEFAULT_WATERMARK = "clipforge";

/**
 * The workspace's mark as it is now. An image is copied next to the video's clips, so a mark
 * replaced (and deleted) while this video renders cannot break it; it goes with the video.
 */
export async function prepareWatermark(run: VideoRun, video: LoadedVideo): Promise<RenderLook["watermark"]> {
	const row = await watermarkOf(run.db, video.workspaceId);
	const copy = row?.watermarkImageKey ? await run.env.MEDIA.get(row.watermarkImageKey) : null;
	if (!copy) return { kind: "text", text: row?.watermarkText ?? DEFAULT_WATERMARK };
	const key = r2Keys.clipWatermark(run.videoId);
	await run.env.MEDIA.put(key, copy.body, { httpMetadata: { contentType: "image/png" } });
	return { kind: "image", key };
}

/**
 * The background's R2 key; the built-in library is drawn on first use and kept for every later
 * video. The choice was checked at submission, so a workspace background (or category) that is
 * gone now was deleted by the workspace itself: the video fails at its cost (no refund).
 */
export async function prepareBackground(run: VideoRun, video: LoadedVideo): Promise<string | null> {
	const background = await resolveBackground(run.db, video.workspaceId, video.config, run.videoId).catch(async () => {
		const chosen = video.config.splitScreenBgVideoId
			? `The split-screen background ${video.config.splitScreenBgVideoId}`
			: `Every background of the category ${video.config.splitScreenBgCategoryId}`;
		throw await backgroundDeleted(run, chosen);
	});
	if (!background) return null;
	if (background.builtIn && !(await run.env.MEDIA.head(background.objectKey))) {
		await drawBuiltinBackground(run, background);
	} else if (!(await run.env.MEDIA.head(background.objectKey))) {
		throw await backgroundDeleted(run, `The split-screen background ${background.id}`);
	}
	return background.objectKey;
}

/** Draws a built-in background into its R2 key (once: every later video reuses it). */
export async function drawBuiltinBackground(
	run: VideoRun,
	background: { id: string; objectKey: string },
): Promise<void> {
	const putUrl = await signInternalObjectUrl(run.env, background.objectKey, "PUT");
	await renderJob(
		run,
		"Drawing the split-screen background",
		renderInstance.draw(run.env, background.id),
		"makeBackground",
		{ backgroundId: background.id as BuiltinBackgroundId, putUrl },
	);
}

/** A workspace background is one of its own uploads (built-ins are never deleted). */
export const isWorkspaceBackground = (key: string) =>
	key.startsWith("backgrounds/") && !key.startsWith(r2Keys.builtinBackground(""));

/**
 * Ends the video as failed by the user's own deletion (charge kept) and returns the error that
 * stops the workflow; its failure step then finds the video finished and refunds nothing. In a
 * reprocess it is the reprocess that fails so (its charge kept, its previous clips and config
 * back), and it counts toward the free ones: a deletion is no way to reprocess for free.
 */
export async function backgroundDeleted(run: VideoRun, what: string): Promise<NonRetryableError> {
	const message = USER_CAUSED_FAILURES.backgroundDeleted(what);
	const reprocess = await runningReprocessOf(run.db, run.videoId);
	if (reprocess) await failReprocess(run.db, reprocess, message, { byUser: true });
	else await markFailedByUser(run.db, run.videoId, message);
	return new NonRetryableError(message);
}
