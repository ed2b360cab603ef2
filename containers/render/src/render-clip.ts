/**
 * The render-clip job: plans everything a clip needs (smart-crop path, ASS captions and hook title,
 * background and watermark files), then encodes it in one ffmpeg pass, grabs a representative
 * thumbnail from the result, and uploads both.
 */
import { createHash } from "node:crypto";
import { rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { buildAssDocument } from "./captions.ts";
import { assertLookFonts } from "./caption-preview.ts";
import { encodeSlots } from "./encode-slots.ts";
import type { OnProgress, RenderClipResult, RenderClipSpec } from "@clipforge/contract";
import { scanFaces } from "./faces.ts";
import { plainThumbnailArgs, renderClipArgs, type RenderClipArgs } from "./ffmpeg-args.ts";
import { ffmpegProgressReader } from "./ffmpeg-progress.ts";
import { layoutFor, type Layout } from "./layout.ts";
import { runProcess } from "./run-process.ts";
import { prepareJumpCuts } from "./silences.ts";
import { planCrop, positionExpression } from "./smart-crop.ts";
import { tools } from "./tool-paths.ts";
import { fetchToFile, putFile } from "./transfer.ts";
import { fileSize, idFile, sharedDir, videoDir } from "./workdir.ts";

/** Width of the JPEG thumbnail (height follows the aspect ratio). */
const THUMBNAIL_WIDTH = 540;

export async function renderClip(req: RenderClipSpec, onProgress: OnProgress, signal: AbortSignal): Promise<RenderClipResult> {
	const dir = await videoDir(req.videoId);
	const file = (suffix: string) => idFile(dir, req.clipId, suffix);
	const scratch: string[] = [];
	const layout = layoutFor(req.aspectRatio, req.splitScreen?.ratio ?? null);
	if (req.captions) await assertLookFonts(req.captions.look);
	// CPU work holds an encode slot; the uploads below run without one, beside the next clip's encode.
	const release = await encodeSlots.acquire(signal);
	try {
		const faceShare = req.smartCrop ? 0.3 : 0;
		const crop = req.smartCrop ? await faceTrack(req, layout, (f) => onProgress(f * faceShare), signal) : null;
		// Remove silences: the cuts are planned first, so captions are timed on the cut clip.
		const cuts = req.jumpCuts
			? await prepareJumpCuts(req.jumpCuts, { url: req.sourceUrl, start: req.start, end: req.end }, req.captions?.words ?? null, req.splitScreen ? 30 : null, signal)
			: null;
		const duration = cuts ? cuts.plan.duration : req.end - req.start;
		const captions = req.captions && cuts?.words ? { ...req.captions, words: cuts.words } : req.captions;

		let assFile: string | null = null;
		if (captions || req.hookTitle) {
			assFile = file(".ass");
			await writeFile(assFile, buildAssDocument({ layout, captions, hookTitle: req.hookTitle, duration }), "utf8");
			scratch.push(assFile);
		}
		let watermark: RenderClipArgs["watermark"] = null;
		if (req.watermark?.kind === "text") {
			// Text goes to drawtext through a file: no user text is ever spliced into the filtergraph.
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
		const backgroundFile = req.splitScreen ? await localBackground(req.splitScreen.backgroundKey, req.splitScreen.backgroundUrl, signal) : null;

		const videoPath = file(".mp4");
		const thumbPath = file(".jpg");
		scratch.push(videoPath, thumbPath);
		await runProcess(
			tools.ffmpeg,
			renderClipArgs({
				sourceUrl: req.sourceUrl, start: req.start, end: req.end, layout, track: crop?.track ?? null, assFile, backgroundFile, watermark,
				outputPath: videoPath, thumbnail: { path: thumbPath, width: THUMBNAIL_WIDTH }, jumpCuts: cuts?.args ?? null,
			}),
			{
				timeoutMs: Math.max(10 * 60_000, duration * 20_000),
				signal,
				collectStdout: false,
				onStdoutLine: ffmpegProgressReader(duration, (f) => onProgress(faceShare + f * (0.85 - faceShare))),
			},
		);
		const renderedDuration = await mediaDuration(videoPath, signal);
		// Every candidate was dark (a night scene, a black intro): any frame is better than none.
		if (!(await fileSize(thumbPath))) {
			await runProcess(tools.ffmpeg, plainThumbnailArgs(videoPath, renderedDuration, thumbPath, THUMBNAIL_WIDTH), { timeoutMs: 2 * 60_000, signal });
		}
		release();
		const bytes = await putFile(videoPath, req.videoPutUrl, "video/mp4", (f) => onProgress(0.85 + f * 0.13), signal);
		const thumbnailBytes = await putFile(thumbPath, req.thumbnailPutUrl, "image/jpeg", undefined, signal);
		onProgress(1);
		return {
			bytes,
			thumbnailBytes,
			...layout.output,
			duration: renderedDuration,
			faceFrames: crop?.faceFrames ?? 0,
			sampledFrames: crop?.sampledFrames ?? 0,
			removedSeconds: cuts?.plan.removed ?? 0,
			cuts: cuts?.plan.cuts.length ?? 0,
		};
	} finally {
		release();
		// Uploaded or failed: the scratch copies only fill the instance's disk (renders of one video may land on any instance).
		await Promise.all(scratch.map((p) => rm(p, { force: true })));
	}
}

/** Samples the clip's frames, finds faces, and returns the crop path (null: nothing to follow). */
async function faceTrack(req: RenderClipSpec, layout: Layout, onProgress: OnProgress, signal: AbortSignal) {
	const source = await videoSize(req.sourceUrl, signal);
	const target = layout.main.width / layout.main.height;
	// Same shape as the source (16:9 out of 16:9): nothing is cropped, so there is nothing to follow.
	if (Math.abs(target / (source.width / source.height) - 1) < 0.01) return null;
	const scan = await scanFaces(req.sourceUrl, req.start, req.end - req.start, source, onProgress, signal);
	const plan = planCrop(scan.samples, scan.cuts, scan.sourceAspect, layout.main.width / layout.main.height);
	const faceFrames = scan.samples.filter((s) => s.faces.length > 0).length;
	return {
		track: plan && plan.faceSamples > 0 ? { axis: plan.axis, position: positionExpression(plan.keyframes) } : null,
		faceFrames,
		sampledFrames: scan.samples.length,
	};
}

/** A background is fetched once per instance and reused for every clip (they are short loops). */
async function localBackground(key: string, url: string, signal: AbortSignal): Promise<string> {
	const path = join(await sharedDir(), `${createHash("sha256").update(key).digest("hex").slice(0, 32)}.mp4`);
	if ((await fileSize(path)) !== null) return path;
	const partial = `${path}.${process.pid}.${Date.now()}.part`;
	await fetchToFile(url, partial, signal);
	await rename(partial, path);
	return path;
}

async function videoSize(url: string, signal: AbortSignal): Promise<{ width: number; height: number }> {
	const { stdout } = await runProcess(tools.ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0", url], {
		timeoutMs: 30_000,
		signal,
	});
	const [width, height] = stdout.trim().split(",").map(Number);
	if (!width || !height) throw new Error("The source's frame size could not be read.");
	return { width, height };
}

export async function mediaDuration(path: string, signal: AbortSignal): Promise<number> {
	const { stdout } = await runProcess(tools.ffprobe, ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path], {
		timeoutMs: 30_000,
		signal,
	});
	return Number(stdout.trim());
}
