/**
 * The steps of a clip edit (PATCH /api/clips/:id that changes the picture): "load clip edit",
 * "prepare the look of the edited clip", "render the edited clip", "finish clip edit", or "mark
 * clip edit failed" (the clip goes back to its previous cut and files). The edit's files have keys
 * of their own (r2Keys.clipEditVideo), so the clip's previous file is served until the new one is
 * complete, and a repeated step finds its work done.
 */
import { NonRetryableError } from "cloudflare:workflows";
import { completeClipEdit, failClipEdit } from "../../worker/db/clip-edits";
import { findClip, type RenderedClipFiles } from "../../worker/db/clips";
import { findVideoById } from "../../worker/db/videos";
import type { CaptionFix } from "../../worker/domain/clip-edit";
import type { VideoConfig } from "../../worker/domain/video-config";
import { clipWords } from "../../worker/domain/clip-edit";
import { resolveCaptionLook } from "../../worker/services/caption-templates";
import { captionsShown } from "../../worker/services/edit-clip";
import { resolveBackground } from "../../worker/services/media-library";
import { r2Keys } from "../../worker/services/r2-keys";
import { renderInstance } from "../../worker/services/render-instances";
import { drawBuiltinBackground, prepareWatermark, type RenderLook } from "./look";
import {
	clipToRender,
	renderedFiles,
	renderRequestFor,
	signTargets,
	wordsIfNeeded,
	type RenderTargets,
} from "./render-clip";
import { loadVideo, renderJob, type LoadedVideo, type VideoRun } from "./run";

import type { ClipEditParams } from "../params";

export type { ClipEditParams };

export interface LoadedClipEdit extends ClipEditParams {
	/** False when this edit is no longer the clip's running one (finished, failed, or replaced): nothing to do. */
	running: boolean;
	sourceKey: string;
	transcriptKey: string;
}

export async function loadClipEdit(
	run: VideoRun,
	params: ClipEditParams,
): Promise<{ video: LoadedVideo; edit: LoadedClipEdit }> {
	const [clip, videoRow] = await Promise.all([findClip(run.db, params.clipId), findVideoById(run.db, run.videoId)]);
	if (!clip || !videoRow) throw new NonRetryableError(`Clip ${params.clipId} no longer exists.`);
	const sourceKey = videoRow.sourceKey ?? r2Keys.source(run.videoId);
	const transcriptKey = videoRow.transcriptKey ?? r2Keys.transcript(run.videoId);
	const running = clip.status === "generating" && clip.edits === params.number;
	if (running) {
		const [source, transcript] = await Promise.all([
			run.env.MEDIA.head(sourceKey),
			run.env.MEDIA.head(transcriptKey),
		]);
		if (!source || !transcript)
			throw new NonRetryableError("The stored source or transcript of the video is no longer there.");
	}
	return { video: await loadVideo(run), edit: { ...params, running, sourceKey, transcriptKey } };
}

/**
 * The look the video's clips were drawn with: its stored copy of the watermark (made now from the
 * workspace's mark if it has none), and its split-screen background. A workspace background that
 * was deleted since cannot be drawn again: a permanent failure of this edit only (the video and its
 * other clips are untouched).
 */
export async function prepareEditLook(run: VideoRun, video: LoadedVideo): Promise<RenderLook> {
	const { config } = video;
	const look: RenderLook = { watermark: null, backgroundKey: null };
	if (config.enableWatermark) {
		const copy = r2Keys.clipWatermark(run.videoId);
		look.watermark = (await run.env.MEDIA.head(copy))
			? { kind: "image", key: copy }
			: await prepareWatermark(run, video);
	}
	if (config.enableSplitScreen) {
		const gone = new NonRetryableError(
			"The split-screen background this video was drawn with was deleted, so the clip cannot be drawn again the same way.",
		);
		const background = await resolveBackground(run.db, video.workspaceId, config, run.videoId).catch(() => null);
		if (!background) throw gone;
		if (!(await run.env.MEDIA.head(background.objectKey))) {
			if (!background.builtIn) throw gone;
			await drawBuiltinBackground(run, background);
		}
		look.backgroundKey = background.objectKey;
	}
	return look;
}

/** Renders the clip's new cut into the edit's own keys; skipped when both files are already there. */
export async function renderEditedClip(
	run: VideoRun,
	video: LoadedVideo,
	edit: LoadedClipEdit,
	look: RenderLook,
): Promise<RenderedClipFiles> {
	const videoKey = r2Keys.clipEditVideo(run.videoId, edit.clipId, edit.number);
	const thumbnailKey = r2Keys.clipEditThumbnail(run.videoId, edit.clipId, edit.number);
	const [storedVideo, storedThumbnail] = await Promise.all([
		run.env.MEDIA.head(videoKey),
		run.env.MEDIA.head(thumbnailKey),
	]);
	if (storedVideo && storedThumbnail) return { videoKey, thumbnailKey, bytes: storedVideo.size };

	const clip = await findClip(run.db, edit.clipId);
	if (!clip || clip.status !== "generating" || clip.edits !== edit.number)
		throw new NonRetryableError("The edit was replaced before it was rendered.");
	const config = editedClipConfig(video.config, clip.captionStyle);
	// The clip's look (its own, or the video's), a deleted workspace template included.
	const captions = config.enableCaptions
		? await resolveCaptionLook(run.db, video.workspaceId, config.captionTemplateId)
		: null;
	const targets: RenderTargets = { sourceKey: edit.sourceKey, videoKey, thumbnailKey, look };
	const signed = await signTargets(run, targets);
	const fixes = clip.captionFixes as CaptionFix[] | null;
	const words = clipWords(await wordsIfNeeded(run, config, edit.transcriptKey), clip.startTime, clip.endTime, fixes);
	const request = renderRequestFor(config, clipToRender(run, video, clip, words, signed.urls), {
		...signed.look,
		captions,
	});
	const result = await renderJob(
		run,
		"Rendering the edited clip",
		renderInstance.render(run.env, run.videoId, edit.number),
		"renderClip",
		request,
	);
	return renderedFiles(targets, result);
}

/** The video's config as this clip is drawn: its own caption style (or none) over the video's. */
function editedClipConfig(config: VideoConfig, captionStyle: string | null): VideoConfig {
	return {
		...config,
		enableCaptions: captionsShown(config, captionStyle),
		captionTemplateId: (captionStyle ?? config.captionTemplateId) as VideoConfig["captionTemplateId"],
	};
}

/** The edit's files become the clip's; the replaced ones go. If the edit was overtaken (the clip deleted or replaced), its own files go instead. */
export async function finishClipEdit(
	run: VideoRun,
	edit: LoadedClipEdit,
	files: RenderedClipFiles,
): Promise<{ replaced: boolean }> {
	const replaced = await completeClipEdit(run.db, edit.clipId, edit.number, files);
	const stale = replaced
		? [replaced.videoKey, replaced.thumbnailKey].filter(
				(k): k is string => Boolean(k) && k !== files.videoKey && k !== files.thumbnailKey,
			)
		: [files.videoKey, files.thumbnailKey];
	if (stale.length > 0) await run.env.MEDIA.delete(stale);
	return { replaced: replaced !== null };
}

/** The clip goes back to its previous cut and files, saying why; the edit's half-made files go. */
export async function failClipEditStep(
	run: VideoRun,
	params: ClipEditParams,
	cause: string,
): Promise<{ failed: true; restored: boolean }> {
	const restored = await failClipEdit(
		run.db,
		params.clipId,
		params.number,
		`The edit could not be rendered: ${cause.replace(/\.$/, "")}. The clip keeps its previous version.`,
	);
	const keys = [
		r2Keys.clipEditVideo(run.videoId, params.clipId, params.number),
		r2Keys.clipEditThumbnail(run.videoId, params.clipId, params.number),
	];
	// Never the files the clip shows (an edit that did finish).
	const clip = await findClip(run.db, params.clipId);
	const orphans = keys.filter((key) => key !== clip?.videoKey && key !== clip?.thumbnailKey);
	if (orphans.length > 0) await run.env.MEDIA.delete(orphans);
	return { failed: true, restored };
}
