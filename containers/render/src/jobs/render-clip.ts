/** `renderClip`: one clip, planned, encoded in one pass and uploaded with its thumbnail (render/clip.ts). */
import { renderClip } from "../render/clip.ts";
import type { JobHandler } from "../runtime/job-registry.ts";

export const renderClipJob: JobHandler<"renderClip"> = (req, onProgress, signal) => renderClip(req, onProgress, signal);
