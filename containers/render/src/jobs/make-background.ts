/**
 * `makeBackground`: a built-in split-screen background drawn by ffmpeg's own sources, stored as a
 * loop (media/backgrounds.ts).
 */
import { makeBackground } from "../media/backgrounds.ts";
import type { JobHandler } from "../runtime/job-registry.ts";

export const makeBackgroundJob: JobHandler<"makeBackground"> = (req, onProgress, signal) =>
	makeBackground(req, onProgress, signal);
