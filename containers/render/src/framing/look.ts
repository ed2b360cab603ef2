/**
 * The look at a clip's source its framing needs (framing.ts decides from it): the picture's size,
 * then the faces on sampled frames (only when the output crops the source), then, for a speaker
 * layout with two people in view, the sound's energy per channel around each sample. Each read is
 * made only when the one before calls for it, so a default render (smart crop off) reads nothing.
 */
import type { OnProgress } from "@clipforge/contract";
import { videoSize } from "../source/stored-media.ts";
import { scanFaces, type FaceScan } from "./faces.ts";
import { baseLayoutOf, type FramingLook, type FramingRequest } from "./framing.ts";
import type { Layout } from "./layout.ts";
import { TWO_FACE_SHARE } from "./speakers.ts";
import { channelEnergy } from "./speech-energy.ts";

export async function lookAtSource(
	req: FramingRequest & { sourceUrl: string },
	onProgress: OnProgress,
	signal: AbortSignal,
): Promise<FramingLook> {
	if (!looksForFaces(req)) return { source: null, scan: null, speech: null };
	const source = await videoSize(req.sourceUrl, signal);
	if (!cropsSource(baseLayoutOf(req), source)) return { source, scan: null, speech: null };
	const duration = req.end - req.start;
	const scan = await scanFaces(req.sourceUrl, req.start, duration, source, onProgress, signal);
	if (!speakerLayoutAsked(req) || !twoPeopleInView(scan)) return { source, scan, speech: null };
	const times = scan.samples.map((s) => s.t);
	const window = times.length > 1 ? times[1]! - times[0]! : 0.25;
	const energy = await channelEnergy(req.sourceUrl, req.start, duration, times, window, signal);
	return { source, scan, speech: { energy } };
}

/**
 * Whether a speaker layout may be chosen: asked for by name, or auto with smart crop on (auto looks
 * for two people only where smart crop already scans faces: a default render, smart crop off, costs
 * what it did before speaker layouts).
 */
const speakerLayoutAsked = (req: Pick<FramingRequest, "layout" | "smartCrop">): boolean =>
	req.layout === "follow-speaker" || req.layout === "stacked" || (req.layout === "auto" && req.smartCrop);

/** Whether the clip's faces are looked for at all: smart crop, or a speaker layout. */
const looksForFaces = (req: Pick<FramingRequest, "layout" | "smartCrop">): boolean =>
	req.smartCrop || speakerLayoutAsked(req);

/**
 * False when the output has the source's shape (16:9 out of 16:9): nothing is cropped, so there is
 * nothing to follow.
 */
function cropsSource(layout: Layout, source: { width: number; height: number }): boolean {
	const target = layout.main.width / layout.main.height;
	return Math.abs(target / (source.width / source.height) - 1) >= 0.01;
}

/** Two people steadily in view: two confident faces on at least TWO_FACE_SHARE of the samples. */
function twoPeopleInView(scan: FaceScan): boolean {
	const twoFaces = scan.samples.filter((s) => s.faces.filter((f) => f.score >= 0.5).length >= 2).length;
	return scan.samples.length > 0 && twoFaces / scan.samples.length >= TWO_FACE_SHARE;
}
