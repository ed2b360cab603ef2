/** Step "render clip N of M": one clip through the tier, from the source in R2 to its MP4 and JPEG. */
import { NonRetryableError } from "cloudflare:workflows";
import type { CaptionLook, RenderClipRequest, WatermarkSpec, Word } from "@clipforge/contract";
import { completedClipCount, findClip, markClipRendered } from "../../worker/db/clips";
import { enterStage, raiseProgress } from "../../worker/db/videos";
import { progressAt } from "../../worker/domain/progress";
import { pausesToCut } from "../../worker/domain/silences";
import type { VideoConfig } from "../../worker/domain/video-config";
import { resolveCaptionLook } from "../../worker/services/caption-templates";
import { r2Keys } from "../../worker/services/r2-keys";
import type { RenderInstance } from "../../worker/services/render-instances";
import { signInternalObjectUrl } from "../../worker/services/signing";
import type { Transcript } from "../../worker/services/transcription/transcript";
import { backgroundDeleted, isWorkspaceBackground, type RenderLook } from "./look";
import { readJson, renderJob, reporter, type LoadedVideo, type VideoRun } from "./run";

/** A clip as the tier is asked to draw it: where it is, what is said in it, where its files go. */
export interface ClipToRender {
	videoId: string;
	clipId: string;
	start: number;
	end: number;
	hookTitle: string | null;
	/** The transcript's words (absolute times); empty when neither captions nor silence removal need them. */
	words: Word[];
	sourceUrl: string;
	videoPutUrl: string;
	thumbnailPutUrl: string;
}

/** The look with its R2 keys signed for the tier. */
export interface SignedLook {
	watermark: WatermarkSpec | null;
	background: { url: string; key: string } | null;
	/** The caption template resolved into a look (null without captions). */
	captions: CaptionLook | null;
}

/**
 * The one place a video's config becomes what the tier draws. A new look is a config option,
 * a field of the contract's RenderClipRequest, and a line here.
 */
export function renderRequestFor(config: VideoConfig, clip: ClipToRender, look: SignedLook): RenderClipRequest {
	return {
		videoId: clip.videoId,
		clipId: clip.clipId,
		sourceUrl: clip.sourceUrl,
		start: clip.start,
		end: clip.end,
		aspectRatio: config.aspectRatio,
		videoPutUrl: clip.videoPutUrl,
		thumbnailPutUrl: clip.thumbnailPutUrl,
		captions:
			config.enableCaptions && look.captions
				? { look: look.captions, words: wordsWithin(clip.words, clip.start, clip.end) }
				: null,
		hookTitle: config.enableIntroTitle ? clip.hookTitle : null,
		watermark: config.enableWatermark ? look.watermark : null,
		splitScreen:
			config.enableSplitScreen && look.background
				? { backgroundUrl: look.background.url, backgroundKey: look.background.key, ratio: config.splitRatio }
				: null,
		smartCrop: config.enableSmartCrop,
		jumpCuts: config.removeSilences ? jumpCutsFor(config, clip) : null,
		layout: config.layout,
	};
}

/** Remove silences: the clip's pauses from the transcript (the tier confirms them with its own ears). */
function jumpCutsFor(config: VideoConfig, clip: ClipToRender): RenderClipRequest["jumpCuts"] {
	const pauses = pausesToCut(wordsWithin(clip.words, clip.start, clip.end), config.silenceThresholdSeconds);
	return pauses.length > 0 ? { pauses, confirmWithAudio: true } : null;
}

/** The clip's words, with times from the clip's start (what its captions show). */
function wordsWithin(words: Word[], start: number, end: number): Word[] {
	return words
		.filter((w) => w.end > start && w.start < end)
		.map((w) => ({ word: w.word, start: Math.max(0, w.start - start), end: Math.min(end, w.end) - start }));
}

/** Skipped when the clip is already rendered and stored (a repeated step). */
export async function renderClipStep(
	run: VideoRun,
	video: LoadedVideo,
	job: {
		clipId: string;
		sourceKey: string;
		transcriptKey: string;
		look: RenderLook;
		total: number;
		instance: string;
	},
) {
	const { clipId, total } = job;
	await enterStage(run.db, run.videoId, "generating_clips", progressAt("generating_clips", 0));
	const clip = await findClip(run.db, clipId);
	if (!clip) throw new NonRetryableError(`Clip ${clipId} disappeared before rendering.`);
	const videoKey = r2Keys.clipVideo(run.videoId, clipId);
	const thumbnailKey = r2Keys.clipThumbnail(run.videoId, clipId);
	if (clip.status === "completed" && (await run.env.MEDIA.head(videoKey))) return { clipId, videoKey };

	const sign = (key: string, method: "GET" | "PUT") => signInternalObjectUrl(run.env, key, method);
	const { watermark, backgroundKey } = job.look;
	const [sourceUrl, videoPutUrl, thumbnailPutUrl, signedWatermark, backgroundUrl] = await Promise.all([
		sign(job.sourceKey, "GET"),
		sign(videoKey, "PUT"),
		sign(thumbnailKey, "PUT"),
		watermark?.kind === "image"
			? sign(watermark.key, "GET").then((imageUrl): WatermarkSpec => ({ kind: "image", imageUrl }))
			: Promise.resolve(watermark),
		backgroundKey ? sign(backgroundKey, "GET") : Promise.resolve(null),
	]);
	const { config } = video;
	const words =
		config.enableCaptions || config.removeSilences
			? (await readJson<Transcript>(run, job.transcriptKey)).words
			: [];
	const captions = config.enableCaptions
		? (job.look.captions ?? (await resolveCaptionLook(run.db, video.workspaceId, config.captionTemplateId)))
		: null;
	const request = renderRequestFor(
		config,
		{
			videoId: run.videoId,
			clipId,
			start: clip.startTime,
			end: clip.endTime,
			hookTitle: clip.hookTitle,
			words,
			sourceUrl,
			videoPutUrl,
			thumbnailPutUrl,
		},
		{
			watermark: signedWatermark,
			background: backgroundKey && backgroundUrl ? { url: backgroundUrl, key: backgroundKey } : null,
			captions,
		},
	);
	const doneBefore = await completedClipCount(run.db, run.videoId, clip.generation);
	// The workspace's own background may be deleted while the video renders: that is its doing.
	const backgroundGone = async () =>
		Boolean(backgroundKey && isWorkspaceBackground(backgroundKey) && !(await run.env.MEDIA.head(backgroundKey)));
	if (await backgroundGone()) throw await backgroundDeleted(run, "The split-screen background");
	const result = await renderJob(
		run,
		"Rendering a clip",
		job.instance as RenderInstance,
		"renderClip",
		request,
		reporter(run, "generating_clips", doneBefore / total, 1 / total),
	).catch(async (error: unknown) => {
		throw (await backgroundGone()) ? await backgroundDeleted(run, "The split-screen background") : error;
	});
	// With pauses cut out, the clip the user gets is shorter than its span in the source: report that length.
	const cut = result.cutStretches.length > 0;
	await markClipRendered(run.db, clipId, {
		videoKey,
		thumbnailKey,
		bytes: result.bytes,
		jumpCuts: cut ? result.cutStretches : null,
		...(cut ? { duration: Math.round(result.duration * 100) / 100 } : {}),
	});
	await raiseProgress(
		run.db,
		run.videoId,
		progressAt("generating_clips", (await completedClipCount(run.db, run.videoId, clip.generation)) / total),
	);
	return { clipId, videoKey };
}
