/**
 * The render-clip job: plans everything a clip needs (smart-crop path, ASS captions and hook title,
 * background and watermark files), then encodes it in one ffmpeg pass, grabs a representative
 * thumbnail from the result, and uploads both.
 */
import { createHash } from "node:crypto";
import { rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { buildAssDocument } from "./captions/ass-document.ts";
import { assertLookFonts } from "./captions/look-fonts.ts";
import { cpuSlots } from "./runtime/encode-slots.ts";
import type { Framing, OnProgress, RenderClipResult, RenderClipSpec, Word } from "@clipforge/contract";
import { scanFaces, type FaceScan } from "./framing/faces.ts";
import { mediaDuration, videoSize } from "./source/stored-media.ts";
import { plainThumbnailArgs, renderClipArgs, type RenderClipArgs } from "./ffmpeg/clip-args.ts";
import { ffmpegProgressReader } from "./ffmpeg/progress.ts";
import { jobTimeouts } from "./runtime/job-timeouts.ts";
import { layoutFor, type Layout } from "./framing/layout.ts";
import { runProcess } from "./runtime/run-process.ts";
import { prepareJumpCuts } from "./silences.ts";
import { fileTime } from "./source/frame.ts";
import { planCrop, positionExpression } from "./framing/smart-crop.ts";
import { analyseSpeakers, DECIDED_SHARE, speakerCropPlan, stackedCrops, TWO_FACE_SHARE } from "./framing/speakers.ts";
import type { PixelRect } from "./ffmpeg/geometry.ts";
import { channelEnergy } from "./framing/speech-energy.ts";
import { tools } from "./runtime/tool-paths.ts";
import { fetchToFile, putFile } from "./runtime/transfer.ts";
import { x264Preset } from "./ffmpeg/encode-preset.ts";
import { holdPath } from "./runtime/job-context.ts";
import { fileSize, idFile, sharedDir, videoDir } from "./runtime/workdir.ts";

/** Width of the JPEG thumbnail (height follows the aspect ratio). */
const THUMBNAIL_WIDTH = 540;

export async function renderClip(
	spec: RenderClipSpec,
	onProgress: OnProgress,
	signal: AbortSignal,
): Promise<RenderClipResult> {
	// Every read below seeks the stored file, which begins at sourceStart of the source (source-frame.ts).
	const req = { ...spec, start: fileTime(spec.start, spec.sourceStart), end: fileTime(spec.end, spec.sourceStart) };
	const dir = await videoDir(req.videoId);
	const file = (suffix: string) => idFile(dir, req.clipId, suffix);
	const scratch: string[] = [];
	if (req.captions) await assertLookFonts(req.captions.look);
	// CPU work holds an encode slot; the uploads below run without one, beside the next clip's encode.
	const owner = { workspace: req.workspaceId, video: req.videoId };
	try {
		const encoded = await cpuSlots.run(signal, owner, () => encodeClip(req, file, scratch, onProgress, signal));
		const uploadProgress = (f: number) => onProgress(0.85 + f * 0.13);
		const bytes = await putFile(encoded.videoPath, req.videoPutUrl, "video/mp4", uploadProgress, signal);
		const thumbnailBytes = await putFile(encoded.thumbPath, req.thumbnailPutUrl, "image/jpeg", undefined, signal);
		onProgress(1);
		const { framing, cutPlan, duration } = encoded;
		return clipResult(framing, cutPlan, { bytes, thumbnailBytes, duration });
	} finally {
		// Uploaded or failed: the scratch copies only fill the instance's disk (renders of one video may land on any instance).
		await Promise.all(scratch.map((p) => rm(p, { force: true })));
	}
}

/** Everything that needs the CPU slot: framing, cuts, overlays, the encode and the thumbnail. */
async function encodeClip(
	req: RenderClipSpec,
	file: (suffix: string) => string,
	scratch: string[],
	onProgress: OnProgress,
	signal: AbortSignal,
) {
	const baseLayout = layoutFor(req.aspectRatio, req.splitScreen?.ratio ?? null);
	const faceShare = req.smartCrop || req.layout !== "single" ? 0.3 : 0;
	const framing = await planFraming(req, baseLayout, (f) => onProgress(f * faceShare), signal);
	// Remove silences: the cuts are planned before the captions, so they are timed on the cut clip.
	const cuts = await jumpCutsFor(req, signal);
	const duration = cuts ? cuts.plan.duration : req.end - req.start;
	const overlays = await overlayFiles(req, framing.layout, cuts?.words ?? null, duration, file, signal);
	scratch.push(...overlays.scratch);
	const backgroundFile = req.splitScreen
		? await localBackground(req.splitScreen.backgroundKey, req.splitScreen.backgroundUrl, signal)
		: null;
	const videoPath = file(".mp4");
	const thumbPath = file(".jpg");
	scratch.push(videoPath, thumbPath);
	const args = renderClipArgs({
		...{ sourceUrl: req.sourceUrl, start: req.start, end: req.end },
		...{ layout: framing.layout, track: framing.track, stacked: framing.stacked },
		...{ assFile: overlays.assFile, backgroundFile, watermark: overlays.watermark },
		outputPath: videoPath,
		thumbnail: { path: thumbPath, width: THUMBNAIL_WIDTH },
		jumpCuts: cuts?.args ?? null,
		preset: x264Preset(),
	});
	await encode(args, duration, (f) => onProgress(faceShare + f * (0.85 - faceShare)), signal);
	const renderedDuration = await ensureThumbnail(videoPath, thumbPath, signal);
	return { videoPath, thumbPath, framing, cutPlan: cuts?.plan ?? null, duration: renderedDuration };
}

/** The clip's one ffmpeg pass (video and thumbnail), reporting its progress through the clip. */
async function encode(args: string[], duration: number, onProgress: OnProgress, signal: AbortSignal): Promise<void> {
	await runProcess(tools.ffmpeg, args, {
		timeoutMs: jobTimeouts.renderEncode(duration),
		signal,
		collectStdout: false,
		onStdoutLine: ffmpegProgressReader(duration, onProgress),
	});
}

/** What the job answers: the files' sizes, the output's frame and duration, how it was framed and what was cut. */
function clipResult(
	framing: FramingPlan,
	cutPlan: { removed: number; cuts: RenderClipResult["cutStretches"] } | null,
	uploaded: { bytes: number; thumbnailBytes: number; duration: number },
): RenderClipResult {
	const { faceFrames, sampledFrames } = framing;
	const removed = {
		removedSeconds: cutPlan?.removed ?? 0,
		cuts: cutPlan?.cuts.length ?? 0,
		cutStretches: cutPlan?.cuts ?? [],
	};
	const { bytes, thumbnailBytes, duration } = uploaded;
	const counts = { faceFrames, sampledFrames };
	return {
		bytes,
		thumbnailBytes,
		...framing.layout.output,
		duration,
		...counts,
		framing: framing.framing,
		...removed,
	};
}

/** The silences to cut (remove silences), planned on the source's audio and the caption words; null when off. */
function jumpCutsFor(req: RenderClipSpec, signal: AbortSignal) {
	if (!req.jumpCuts) return Promise.resolve(null);
	const span = { url: req.sourceUrl, start: req.start, end: req.end };
	return prepareJumpCuts(req.jumpCuts, span, req.captions?.words ?? null, req.splitScreen ? 30 : null, signal);
}

/**
 * The files the drawn overlays read: the ASS document (captions, on the cut clip's timeline when
 * pauses were cut, and the hook title) and the watermark (its text in a file, never spliced into
 * the filtergraph; or the image, fetched). `scratch`: the files written, to remove afterwards.
 */
async function overlayFiles(
	req: RenderClipSpec,
	layout: Layout,
	cutWords: Word[] | null,
	duration: number,
	file: (suffix: string) => string,
	signal: AbortSignal,
) {
	const scratch: string[] = [];
	const captions = req.captions && cutWords ? { ...req.captions, words: cutWords } : req.captions;
	let assFile: string | null = null;
	if (captions || req.hookTitle) {
		assFile = file(".ass");
		await writeFile(assFile, buildAssDocument({ layout, captions, hookTitle: req.hookTitle, duration }), "utf8");
		scratch.push(assFile);
	}
	let watermark: RenderClipArgs["watermark"] = null;
	if (req.watermark?.kind === "text") {
		const textFile = file(".watermark.txt");
		await writeFile(textFile, req.watermark.text, "utf8");
		scratch.push(textFile);
		watermark = { kind: "text", textFile };
	} else if (req.watermark?.kind === "image") {
		const imageFile = file(".watermark.png");
		await fetchToFile(req.watermark.imageUrl, imageFile, signal);
		scratch.push(imageFile);
		watermark = { kind: "image", imageFile };
	}
	return { assFile, watermark, scratch };
}

/**
 * The rendered clip's duration, after making sure it has a thumbnail: when every candidate frame
 * was dark (a night scene, a black intro), any frame is better than none.
 */
async function ensureThumbnail(videoPath: string, thumbPath: string, signal: AbortSignal): Promise<number> {
	const renderedDuration = await mediaDuration(videoPath, signal);
	if (!(await fileSize(thumbPath))) {
		await runProcess(tools.ffmpeg, plainThumbnailArgs(videoPath, renderedDuration, thumbPath, THUMBNAIL_WIDTH), {
			timeoutMs: 2 * 60_000,
			signal,
		});
	}
	return renderedDuration;
}

/** How the clip is framed: the crop path or the stacked crops, and the layout they are drawn in. */
interface FramingPlan {
	framing: Framing;
	layout: Layout;
	track: RenderClipArgs["track"];
	stacked: [PixelRect, PixelRect] | null;
	faceFrames: number;
	sampledFrames: number;
}

/**
 * Samples the clip's frames and finds faces (when smart crop or a speaker layout asks for it), then
 * chooses the framing: with two people steadily in view a speaker layout (follow-speaker or
 * stacked; auto, with smart crop on, choosing by whether who speaks can be told), otherwise smart crop's path on the
 * main face (auto: only when smart crop is on, so one-face and faceless clips are drawn exactly as
 * before speaker layouts), or the centre.
 */
async function planFraming(
	req: RenderClipSpec,
	layout: Layout,
	onProgress: OnProgress,
	signal: AbortSignal,
): Promise<FramingPlan> {
	const centre: FramingPlan = {
		framing: "centre",
		layout,
		track: null,
		stacked: null,
		faceFrames: 0,
		sampledFrames: 0,
	};
	// auto looks for two people only where smart crop already scans faces: a default render (smart
	// crop off) costs what it did before speaker layouts; the explicit layouts always scan.
	const speakers =
		req.layout === "follow-speaker" || req.layout === "stacked" || (req.layout === "auto" && req.smartCrop);
	if (!req.smartCrop && !speakers) return centre;
	const source = await videoSize(req.sourceUrl, signal);
	const target = layout.main.width / layout.main.height;
	// Same shape as the source (16:9 out of 16:9): nothing is cropped, so there is nothing to follow.
	if (Math.abs(target / (source.width / source.height) - 1) < 0.01) return centre;
	const duration = req.end - req.start;
	const scan = await scanFaces(req.sourceUrl, req.start, duration, source, onProgress, signal);
	const counts = {
		faceFrames: scan.samples.filter((s) => s.faces.length > 0).length,
		sampledFrames: scan.samples.length,
	};
	const twoFaces = scan.samples.filter((s) => s.faces.filter((f) => f.score >= 0.5).length >= 2).length;
	if (speakers && scan.samples.length > 0 && twoFaces / scan.samples.length >= TWO_FACE_SHARE) {
		const framed = await speakerFraming(req, layout, { scan, source, target }, signal);
		if (framed) return { ...framed, ...counts };
	}
	// One face or none: auto draws exactly what it drew before speaker layouts (smart crop when asked,
	// else the centre); an explicit speaker layout follows the one face there is.
	if (req.layout === "auto" && !req.smartCrop) return { ...centre, ...counts };
	const plan = planCrop(scan.samples, scan.cuts, scan.sourceAspect, target);
	const followed = plan && plan.faceSamples > 0;
	return {
		...centre,
		framing: followed ? "smart-crop" : "centre",
		track: followed ? { axis: plan.axis, position: positionExpression(plan.keyframes) } : null,
		...counts,
	};
}

/**
 * Two people steadily in view: the speaker layout (auto chooses follow-speaker when who speaks can be
 * told, else stacked), or null when no speaker's crop path could be planned.
 */
async function speakerFraming(
	req: RenderClipSpec,
	layout: Layout,
	seen: { scan: FaceScan; source: { width: number; height: number }; target: number },
	signal: AbortSignal,
): Promise<Omit<FramingPlan, "faceFrames" | "sampledFrames"> | null> {
	const { scan, source, target } = seen;
	const duration = req.end - req.start;
	const times = scan.samples.map((s) => s.t);
	const window = times.length > 1 ? times[1]! - times[0]! : 0.25;
	const energy = await channelEnergy(req.sourceUrl, req.start, duration, times, window, signal);
	const analysis = analyseSpeakers({ samples: scan.samples, energy, cuts: scan.cuts, duration });
	const decided = analysis.decidedShare >= DECIDED_SHARE ? "follow-speaker" : "stacked";
	let choice = req.layout === "auto" ? decided : req.layout;
	// Split-screen already takes the bottom of the frame: one picture on top, the speaker's.
	if (choice === "stacked" && req.splitScreen) choice = "follow-speaker";
	if (choice === "stacked" && analysis.pair) {
		const stackedLayout = layoutFor(req.aspectRatio, null, true);
		const [top] = stackedLayout.halves!;
		const stacked = stackedCrops(analysis.pair, source, top);
		return { framing: "stacked", layout: stackedLayout, track: null, stacked };
	}
	const plan = speakerCropPlan(analysis.turns, scan.sourceAspect, target);
	if (!plan) return null;
	const track = { axis: plan.axis, position: positionExpression(plan.keyframes) };
	return { framing: "follow-speaker", layout, track, stacked: null };
}

/** A background is fetched once per instance and reused for every clip (they are short loops). */
async function localBackground(key: string, url: string, signal: AbortSignal): Promise<string> {
	const path = join(await sharedDir(), `${createHash("sha256").update(key).digest("hex").slice(0, 32)}.mp4`);
	if ((await fileSize(path)) !== null) return path;
	const partial = holdPath(`${path}.${process.pid}.${Date.now()}.part`);
	await fetchToFile(url, partial, signal);
	await rename(partial, path);
	return path;
}
