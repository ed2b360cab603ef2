/**
 * `captionPreview`: one PNG frame of sample words drawn in a look, as a clip would draw them
 * (media/caption-preview.ts).
 */
import { captionPreview } from "../media/caption-preview.ts";
import type { JobHandler } from "../runtime/job-registry.ts";

export const captionPreviewJob: JobHandler<"captionPreview"> = (req, onProgress, signal) =>
	captionPreview(req, onProgress, signal);
