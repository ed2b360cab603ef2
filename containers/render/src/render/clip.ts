/**
 * A clip's render: plan → encode → upload. Under a CPU slot, the source is read (inputs.ts: faces,
 * who speaks, silences), a pure plan is made from the request and those reads (plan.ts: the framing,
 * the cuts, the overlays and the one ffmpeg pass's arguments) and carried out in one encode
 * (encode.ts); then, without the slot, the clip and its thumbnail are uploaded (upload.ts).
 */
import { rm } from "node:fs/promises";
import type { OnProgress, RenderClipResult, RenderClipSpec } from "@clipforge/contract";
import { assertLookFonts } from "../captions/look-fonts.ts";
import { x264Preset } from "../ffmpeg/encode-preset.ts";
import { cpuSlots } from "../runtime/encode-slots.ts";
import { sharedDir, videoDir } from "../runtime/workdir.ts";
import { fileTime } from "../source/frame.ts";
import { encodeClip } from "./encode.ts";
import { readInputs } from "./inputs.ts";
import { planClip, type ClipPlan } from "./plan.ts";
import { uploadClip } from "./upload.ts";

export async function renderClip(
	spec: RenderClipSpec,
	onProgress: OnProgress,
	signal: AbortSignal,
): Promise<RenderClipResult> {
	// Every read below seeks the stored file, which begins at sourceStart of the source (source/frame.ts).
	const req = { ...spec, start: fileTime(spec.start, spec.sourceStart), end: fileTime(spec.end, spec.sourceStart) };
	const dir = await videoDir(req.videoId);
	const scratch: string[] = [];
	if (req.captions) await assertLookFonts(req.captions.look);
	// CPU work holds an encode slot; the uploads below run without one, beside the next clip's encode.
	const owner = { workspace: req.workspaceId, video: req.videoId };
	try {
		const encoded = await cpuSlots.run(signal, owner, () => planAndEncode(req, dir, scratch, onProgress, signal));
		const uploaded = await uploadClip(encoded.plan, req, (f) => onProgress(0.85 + f * 0.13), signal);
		onProgress(1);
		return clipResult(encoded.plan, { ...uploaded, duration: encoded.duration });
	} finally {
		// Uploaded or failed: the scratch copies only fill the instance's disk (renders of one video may land on any instance).
		await Promise.all(scratch.map((p) => rm(p, { force: true })));
	}
}

/**
 * Everything that needs the CPU slot: the reads of the source, the plan, and the encode (its
 * files added to `scratch` as soon as they are planned). Progress: the face scan, when faces are
 * looked for, takes the first 30%; the encode runs up to 85%.
 */
async function planAndEncode(
	req: RenderClipSpec,
	dir: string,
	scratch: string[],
	onProgress: OnProgress,
	signal: AbortSignal,
): Promise<{ plan: ClipPlan; duration: number }> {
	const faceShare = req.smartCrop || req.layout !== "single" ? 0.3 : 0;
	const inputs = await readInputs(req, (f) => onProgress(f * faceShare), signal);
	const shared = req.splitScreen ? await sharedDir() : null;
	const plan = planClip(req, inputs, { dir, shared }, x264Preset());
	scratch.push(...plan.scratch);
	const duration = await encodeClip(plan, (f) => onProgress(faceShare + f * (0.85 - faceShare)), signal);
	return { plan, duration };
}

/** What the job answers: the files' sizes, the output's frame and duration, how it was framed and what was cut. */
function clipResult(
	plan: Pick<ClipPlan, "framing" | "cuts">,
	uploaded: { bytes: number; thumbnailBytes: number; duration: number },
): RenderClipResult {
	const { framing, faceFrames, sampledFrames, layout } = plan.framing;
	const cutPlan = plan.cuts?.plan ?? null;
	const { bytes, thumbnailBytes, duration } = uploaded;
	return {
		bytes,
		thumbnailBytes,
		...layout.output,
		duration,
		faceFrames,
		sampledFrames,
		framing,
		removedSeconds: cutPlan?.removed ?? 0,
		cuts: cutPlan?.cuts.length ?? 0,
		cutStretches: cutPlan?.cuts ?? [],
	};
}
