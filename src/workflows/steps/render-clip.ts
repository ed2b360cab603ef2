/** Step "render clip N of M": one clip through the tier, from the source in R2 to its MP4 and JPEG. */
import { NonRetryableError } from "cloudflare:workflows";
import type { CaptionLook, RenderClipRequest, WatermarkSpec, Word } from "@clipforge/contract";
import { findClip, markClipRendered, type ClipRow, type RenderedClipFiles } from "../../worker/db/clips";
import { renderOptionsOf } from "../../worker/domain/render-options";
import { pausesToCut } from "../../worker/domain/silences";
import type { VideoConfig } from "../../worker/domain/video-config";
import { resolveCaptionLook } from "../../worker/services/caption-templates";
import { r2Keys } from "../../worker/services/r2-keys";
import type { RenderInstance } from "../../worker/services/render-instances";
import { signInternalObjectUrl } from "../../worker/services/signing";
import type { Transcript } from "@clipforge/moments/text";
import { backgroundDeleted, isWorkspaceBackground, type RenderLook } from "./look";
import { readJson, renderJob, storedSource, type LoadedVideo, type StepProgressReport, type VideoRun } from "./run";

/** A clip as the tier is asked to draw it: where it is, what is said in it, where its files go. */
export interface ClipToRender {
	videoId: string;
	/** The tier shares its cores fairly between workspaces, then between their videos. */
	workspaceId: string;
	clipId: string;
	start: number;
	end: number;
	hookTitle: string | null;
	/** The transcript's words (absolute times); empty when neither captions nor silence removal need them. */
	words: Word[];
	/** The transcript's language (its script's rules for the captions), null when unknown. */
	language: string | null;
	sourceUrl: string;
	/** Where the kept source begins in the source (start and end stay in the source's seconds). */
	sourceStart: number;
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
		workspaceId: clip.workspaceId,
		clipId: clip.clipId,
		sourceUrl: clip.sourceUrl,
		sourceStart: clip.sourceStart,
		start: clip.start,
		end: clip.end,
		aspectRatio: config.aspectRatio,
		videoPutUrl: clip.videoPutUrl,
		thumbnailPutUrl: clip.thumbnailPutUrl,
		captions:
			config.enableCaptions && look.captions
				? { look: look.captions, words: wordsWithin(clip.words, clip.start, clip.end), language: clip.language }
				: null,
		hookTitle: config.enableIntroTitle ? clip.hookTitle : null,
		watermark: config.enableWatermark ? look.watermark : null,
		splitScreen:
			config.enableSplitScreen && look.background
				? { backgroundUrl: look.background.url, backgroundKey: look.background.key, ratio: config.splitRatio }
				: null,
		jumpCuts: config.removeSilences ? jumpCutsFor(config, clip) : null,
		// Every row of the contract's RENDER_OPTIONS, copied from the config as it is.
		...renderOptionsOf(config),
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

/** Where a clip's render reads and writes: its source, its two files, and its look. */
export interface RenderTargets {
	sourceKey: string;
	videoKey: string;
	thumbnailKey: string;
	look: RenderLook;
}

/**
 * The targets signed for the tier: GET for what it reads, PUT for what it writes; with where the
 * kept source begins (read from the row: domain/sources.ts).
 */
export async function signTargets(
	run: VideoRun,
	targets: RenderTargets,
): Promise<{ urls: SignedUrls; look: Omit<SignedLook, "captions"> }> {
	const sign = (key: string, method: "GET" | "PUT") => signInternalObjectUrl(run.env, key, method);
	const { watermark, backgroundKey } = targets.look;
	const [sourceUrl, videoPutUrl, thumbnailPutUrl, signedWatermark, backgroundUrl, stored] = await Promise.all([
		sign(targets.sourceKey, "GET"),
		sign(targets.videoKey, "PUT"),
		sign(targets.thumbnailKey, "PUT"),
		watermark?.kind === "image"
			? sign(watermark.key, "GET").then((imageUrl): WatermarkSpec => ({ kind: "image", imageUrl }))
			: Promise.resolve(watermark),
		backgroundKey ? sign(backgroundKey, "GET") : Promise.resolve(null),
		storedSource(run),
	]);
	return {
		urls: { sourceUrl, sourceStart: stored.start, videoPutUrl, thumbnailPutUrl },
		look: {
			watermark: signedWatermark,
			background: backgroundKey && backgroundUrl ? { url: backgroundUrl, key: backgroundKey } : null,
		},
	};
}

type SignedUrls = Pick<ClipToRender, "sourceUrl" | "sourceStart" | "videoPutUrl" | "thumbnailPutUrl">;

/** A clip row as the tier is asked to draw it. */
export function clipToRender(
	run: Pick<VideoRun, "videoId">,
	video: Pick<LoadedVideo, "workspaceId" | "transcript">,
	clip: ClipRow,
	words: Word[],
	urls: SignedUrls,
): ClipToRender {
	return {
		videoId: run.videoId,
		workspaceId: video.workspaceId,
		clipId: clip.id,
		start: clip.startTime,
		end: clip.endTime,
		hookTitle: clip.hookTitle,
		words,
		language: video.transcript?.language ?? null,
		...urls,
	};
}

/** The files a render made. With pauses cut out, the clip is shorter than its span in the source: its length is reported. */
export function renderedFiles(
	targets: Pick<RenderTargets, "videoKey" | "thumbnailKey">,
	result: { bytes: number; duration: number; cutStretches: { start: number; end: number }[] },
): RenderedClipFiles {
	const cut = result.cutStretches.length > 0;
	return {
		videoKey: targets.videoKey,
		thumbnailKey: targets.thumbnailKey,
		bytes: result.bytes,
		jumpCuts: cut ? result.cutStretches : null,
		...(cut ? { duration: Math.round(result.duration * 100) / 100 } : {}),
	};
}

/** The transcript's words when the render needs them (captions, silence removal), else none. */
export async function wordsIfNeeded(run: VideoRun, config: VideoConfig, transcriptKey: string): Promise<Word[]> {
	if (!config.enableCaptions && !config.removeSilences) return [];
	return (await readJson<Transcript>(run, transcriptKey)).words;
}

/**
 * Runs the render unless the workspace's own background was deleted before or while it ran: that
 * is the workspace's doing, and the video fails at its cost (backgroundDeleted).
 */
async function whileBackgroundKept<T>(
	run: VideoRun,
	backgroundKey: string | null,
	render: () => Promise<T>,
): Promise<T> {
	const gone = async () =>
		Boolean(backgroundKey && isWorkspaceBackground(backgroundKey) && !(await run.env.MEDIA.head(backgroundKey)));
	if (await gone()) throw await backgroundDeleted(run, "The split-screen background");
	return render().catch(async (error: unknown) => {
		throw (await gone()) ? await backgroundDeleted(run, "The split-screen background") : error;
	});
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
		instance: string;
	},
	progress: StepProgressReport,
) {
	const { clipId } = job;
	const clip = await findClip(run.db, clipId);
	if (!clip) throw new NonRetryableError(`Clip ${clipId} disappeared before rendering.`);
	const videoKey = r2Keys.clipVideo(run.videoId, clipId);
	const thumbnailKey = r2Keys.clipThumbnail(run.videoId, clipId);
	if (clip.status === "completed" && (await run.env.MEDIA.head(videoKey))) return { clipId, videoKey };

	const targets: RenderTargets = { sourceKey: job.sourceKey, videoKey, thumbnailKey, look: job.look };
	const signed = await signTargets(run, targets);
	const { config } = video;
	const words = await wordsIfNeeded(run, config, job.transcriptKey);
	const captions = config.enableCaptions
		? (job.look.captions ?? (await resolveCaptionLook(run.db, video.workspaceId, config.captionTemplateId)))
		: null;
	const request = renderRequestFor(config, clipToRender(run, video, clip, words, signed.urls), {
		...signed.look,
		captions,
	});
	const result = await whileBackgroundKept(run, job.look.backgroundKey, () =>
		renderJob(run, "Rendering a clip", job.instance as RenderInstance, "renderClip", request, progress),
	);
	await markClipRendered(run.db, clipId, renderedFiles(targets, result));
	return { clipId, videoKey };
}
