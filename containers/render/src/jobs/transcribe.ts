/**
 * `transcribe` (the `local` transcriber): one audio chunk through pocketsphinx, under a CPU slot
 * (audio/pocketsphinx.ts).
 */
import { transcribeLocally } from "../audio/pocketsphinx.ts";
import type { JobHandler } from "../runtime/job-registry.ts";

export const transcribeJob: JobHandler<"transcribe"> = (req, onProgress, signal) =>
	transcribeLocally(req.audioUrl, req.language, onProgress, signal, {
		workspace: req.workspaceId,
		video: req.videoId,
	});
