/**
 * A clip's upload: the encoded clip and its thumbnail to the Worker's signed URLs (runtime/transfer.ts),
 * outside the CPU slot, beside the next clip's encode.
 */
import type { OnProgress, RenderClipSpec } from "@clipforge/contract";
import { putFile } from "../runtime/transfer.ts";
import type { ClipPlan } from "./plan.ts";

/** `onProgress` follows the clip's bytes (the thumbnail is small). */
export async function uploadClip(
	plan: Pick<ClipPlan, "video" | "thumbnail">,
	urls: Pick<RenderClipSpec, "videoPutUrl" | "thumbnailPutUrl">,
	onProgress: OnProgress,
	signal: AbortSignal,
): Promise<{ bytes: number; thumbnailBytes: number }> {
	const bytes = await putFile(plan.video, urls.videoPutUrl, "video/mp4", onProgress, signal);
	const thumbnailBytes = await putFile(plan.thumbnail.path, urls.thumbnailPutUrl, "image/jpeg", undefined, signal);
	return { bytes, thumbnailBytes };
}
