/**
 * What a clip's plan reads of its source before anything is drawn, the render's only reads before
 * its encode: how the source looks to its framing (framing/look.ts: the picture's size, the faces,
 * who speaks) and, when pauses are cut, its frame rate, sound and silences (silences.ts).
 */
import type { OnProgress, RenderClipSpec } from "@clipforge/contract";
import type { FramingLook } from "../framing/framing.ts";
import { lookAtSource } from "../framing/look.ts";
import type { CutInputs } from "./jump-cuts.ts";
import { readCutInputs } from "./silences.ts";

export interface RenderInputs {
	look: FramingLook;
	cuts: CutInputs | null;
}

/** `onProgress` follows the face scan, the one long read. */
export async function readInputs(
	req: RenderClipSpec,
	onProgress: OnProgress,
	signal: AbortSignal,
): Promise<RenderInputs> {
	const look = await lookAtSource(req, onProgress, signal);
	// Remove silences: the cuts are planned before the captions, so they are timed on the cut clip.
	const cuts = await readCutInputs(req, signal);
	return { look, cuts };
}
