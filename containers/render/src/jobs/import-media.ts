/**
 * `importMedia`: a workspace's own background video or watermark image, checked, normalised and
 * stored (media/import-media.ts).
 */
import { importMedia } from "../media/import-media.ts";
import type { JobHandler } from "../runtime/job-registry.ts";

export const importMediaJob: JobHandler<"importMedia"> = (req, onProgress, signal) =>
	importMedia(req, onProgress, signal);
