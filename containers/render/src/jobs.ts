/**
 * The tier's jobs: each takes a validated request, reports progress, and returns the contract's
 * result. HTTP plumbing lives in server.ts.
 */
import type { OnProgress, UploadSourceRequest, UploadSourceResult } from "@clipforge/contract";
import { downloadSource, sourcePath } from "./source/download.ts";
import { storedSourceType } from "./source/frame.ts";
import { putFile } from "./runtime/transfer.ts";

/** Uploads the downloaded source; downloads it again first if this instance does not have it. */
export async function uploadSource(
	req: UploadSourceRequest,
	onProgress: OnProgress,
	signal: AbortSignal,
): Promise<UploadSourceResult> {
	await downloadSource(req, (f) => onProgress(f * 0.5), signal);
	const path = await sourcePath(req.videoId);
	// A frame copied out of an upload may be Matroska (codecs MP4 cannot hold): stored as what it is.
	const bytes = await putFile(
		path,
		req.putUrl,
		await storedSourceType(path),
		(f) => onProgress(0.5 + f * 0.5),
		signal,
	);
	return { bytes };
}
