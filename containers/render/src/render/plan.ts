/**
 * A clip's plan, pure: from the request and what was read of its source (inputs.ts), how it is
 * framed, what is cut, what is drawn over it (the ASS document of captions and hook title, the
 * watermark), the files the one ffmpeg pass reads and writes, and that pass's arguments. Nothing
 * here touches a file or starts a process: encode.ts carries the plan out.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import type { RenderClipSpec, Word } from "@clipforge/contract";
import { buildAssDocument } from "../captions/ass-document.ts";
import { renderClipArgs, type RenderClipArgs } from "../ffmpeg/clip-args.ts";
import type { X264Preset } from "../ffmpeg/encode-preset.ts";
import { framingOf, type FramingPlan } from "../framing/framing.ts";
import type { Layout } from "../framing/layout.ts";
import { idFile } from "../runtime/workdir.ts";
import type { RenderInputs } from "./inputs.ts";
import { prepareJumpCuts, type PreparedCuts } from "./jump-cuts.ts";

/** Width of the JPEG thumbnail (height follows the aspect ratio). */
export const THUMBNAIL_WIDTH = 540;

export interface ClipPlan {
	framing: FramingPlan;
	/** The pauses cut (remove silences); null when none is. */
	cuts: PreparedCuts | null;
	/** Seconds the clip lasts, after the cuts. */
	duration: number;
	/** Files the encode writes first: the ASS document, the watermark's text (never spliced into the filtergraph). */
	writes: { path: string; text: string }[];
	/** The watermark image, fetched for the clip. */
	watermarkImage: { path: string; url: string } | null;
	/** The split-screen background, fetched once per instance and kept for every clip (short loops). */
	background: { path: string; url: string } | null;
	video: string;
	thumbnail: { path: string; width: number };
	/** The one ffmpeg pass: the clip and its thumbnail. */
	args: string[];
	/** Every file of the clip's own, removed when the render ends (uploaded or failed). */
	scratch: string[];
}

/**
 * Where the clip's files go: its video's folder, and the instance's shared folder (backgrounds)
 * when it has split-screen.
 */
export interface ClipFolders {
	dir: string;
	shared: string | null;
}

export function planClip(
	req: RenderClipSpec,
	inputs: RenderInputs,
	folders: ClipFolders,
	preset: X264Preset,
): ClipPlan {
	const file = (suffix: string) => idFile(folders.dir, req.clipId, suffix);
	const framing = framingOf(req, inputs.look);
	const words = req.captions?.words ?? null;
	const cuts = req.jumpCuts
		? prepareJumpCuts(req.jumpCuts, req.end - req.start, inputs.cuts, words, req.splitScreen ? 30 : null)
		: null;
	const duration = cuts ? cuts.plan.duration : req.end - req.start;
	const overlays = overlaysOf(req, framing.layout, cuts?.words ?? null, duration, file);
	const background =
		req.splitScreen && folders.shared
			? {
					path: backgroundPath(folders.shared, req.splitScreen.backgroundKey),
					url: req.splitScreen.backgroundUrl,
				}
			: null;
	const video = file(".mp4");
	const thumbnail = { path: file(".jpg"), width: THUMBNAIL_WIDTH };
	const args = renderClipArgs({
		...{ sourceUrl: req.sourceUrl, start: req.start, end: req.end },
		...{ layout: framing.layout, track: framing.track, stacked: framing.stacked },
		...{ assFile: overlays.assFile, backgroundFile: background?.path ?? null, watermark: overlays.watermark },
		outputPath: video,
		thumbnail,
		jumpCuts: cuts?.args ?? null,
		preset,
	});
	const { writes, watermarkImage } = overlays;
	const scratch = [
		...writes.map((w) => w.path),
		...(watermarkImage ? [watermarkImage.path] : []),
		video,
		thumbnail.path,
	];
	return { framing, cuts, duration, writes, watermarkImage, background, video, thumbnail, args, scratch };
}

/**
 * What is drawn over the picture: the ASS document (captions, on the cut clip's timeline when
 * pauses were cut, and the hook title) and the watermark (its text in a file, or the image).
 */
function overlaysOf(
	req: RenderClipSpec,
	layout: Layout,
	cutWords: Word[] | null,
	duration: number,
	file: (suffix: string) => string,
) {
	const writes: ClipPlan["writes"] = [];
	const captions = req.captions && cutWords ? { ...req.captions, words: cutWords } : req.captions;
	let assFile: string | null = null;
	if (captions || req.hookTitle) {
		assFile = file(".ass");
		writes.push({
			path: assFile,
			text: buildAssDocument({ layout, captions, hookTitle: req.hookTitle, duration }),
		});
	}
	let watermark: RenderClipArgs["watermark"] = null;
	let watermarkImage: ClipPlan["watermarkImage"] = null;
	if (req.watermark?.kind === "text") {
		const textFile = file(".watermark.txt");
		writes.push({ path: textFile, text: req.watermark.text });
		watermark = { kind: "text", textFile };
	} else if (req.watermark?.kind === "image") {
		const imageFile = file(".watermark.png");
		watermarkImage = { path: imageFile, url: req.watermark.imageUrl };
		watermark = { kind: "image", imageFile };
	}
	return { assFile, watermark, writes, watermarkImage };
}

/** A background's file in the shared folder, named by its key: fetched once per instance and reused. */
const backgroundPath = (shared: string, key: string) =>
	join(shared, `${createHash("sha256").update(key).digest("hex").slice(0, 32)}.mp4`);
