/**
 * How a clip is framed, decided from what the look at its source found (look.ts): with two people
 * steadily in view a speaker layout (follow-speaker or stacked; auto, with smart crop on, choosing by
 * whether who speaks can be told), otherwise smart crop's path on the main face (auto: only when
 * smart crop is on, so one-face and faceless clips are drawn exactly as before speaker layouts), or
 * the centre. Pure: the samplers' findings in, the framing out (test/speaker-layouts.test.ts renders it).
 */
import type { Framing, RenderClipSpec } from "@clipforge/contract";
import type { PixelRect } from "../ffmpeg/geometry.ts";
import type { FaceScan } from "./faces.ts";
import { layoutFor, type Layout } from "./layout.ts";
import { planCrop, positionExpression } from "./smart-crop.ts";
import { analyseSpeakers, DECIDED_SHARE, speakerCropPlan, stackedCrops } from "./speakers.ts";
import type { ChannelEnergy } from "./speech-energy.ts";

/** What of a render request decides its framing. */
export type FramingRequest = Pick<
	RenderClipSpec,
	"aspectRatio" | "splitScreen" | "layout" | "smartCrop" | "start" | "end"
>;

/** How the clip is framed: the crop path or the stacked crops, and the layout they are drawn in. */
export interface FramingPlan {
	framing: Framing;
	layout: Layout;
	/** Smart crop's (or follow-speaker's) path: the axis the window slides on and its position, an expression of t. */
	track: { axis: "x" | "y"; position: string } | null;
	stacked: [PixelRect, PixelRect] | null;
	faceFrames: number;
	sampledFrames: number;
}

/** What the look at the source found (look.ts); null where it did not look. */
export interface FramingLook {
	/** The stored source's picture size: null when no face is looked for. */
	source: { width: number; height: number } | null;
	/**
	 * The sampled faces: null when none are looked for, or when nothing is cropped (the output has
	 * the source's shape).
	 */
	scan: FaceScan | null;
	/**
	 * Who speaks (the sound's energy per channel around each sample; null energy: no sound),
	 * measured only for a speaker layout with two people in view.
	 */
	speech: { energy: ChannelEnergy[] | null } | null;
}

/** The layout before any speaker layout: the aspect ratio's, with split-screen's bottom box when asked. */
export const baseLayoutOf = (req: Pick<FramingRequest, "aspectRatio" | "splitScreen">): Layout =>
	layoutFor(req.aspectRatio, req.splitScreen?.ratio ?? null);

/** The clip's framing, from the request and what the look found. */
export function framingOf(req: FramingRequest, look: FramingLook): FramingPlan {
	const layout = baseLayoutOf(req);
	const centre: FramingPlan = {
		framing: "centre",
		layout,
		track: null,
		stacked: null,
		faceFrames: 0,
		sampledFrames: 0,
	};
	const { source, scan } = look;
	if (!source || !scan) return centre;
	const target = layout.main.width / layout.main.height;
	const counts = {
		faceFrames: scan.samples.filter((s) => s.faces.length > 0).length,
		sampledFrames: scan.samples.length,
	};
	if (look.speech) {
		const framed = speakerFraming(req, layout, { scan, source, target, energy: look.speech.energy });
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
function speakerFraming(
	req: FramingRequest,
	layout: Layout,
	seen: { scan: FaceScan; source: { width: number; height: number }; target: number; energy: ChannelEnergy[] | null },
): Omit<FramingPlan, "faceFrames" | "sampledFrames"> | null {
	const { scan, source, target, energy } = seen;
	const duration = req.end - req.start;
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
