/**
 * `uploadSource`: the kept source stored in R2, downloaded again first if this instance does not
 * have it (source/download.ts). A frame copied out of an upload may be Matroska (codecs MP4 cannot
 * hold): it is stored as what it is.
 */
import { putFile } from "../runtime/transfer.ts";
import type { JobHandler } from "../runtime/job-registry.ts";
import { downloadSource, sourcePath } from "../source/download.ts";
import { storedSourceType } from "../source/frame.ts";

export const uploadSourceJob: JobHandler<"uploadSource"> = async (req, onProgress, signal) => {
	await downloadSource(req, (f) => onProgress(f * 0.5), signal);
	const path = await sourcePath(req.videoId);
	const type = await storedSourceType(path);
	return { bytes: await putFile(path, req.putUrl, type, (f) => onProgress(0.5 + f * 0.5), signal) };
};
