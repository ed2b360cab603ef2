/**
 * `extractAudio`: the source's sound cut into the transcription's chunks, each stored in R2
 * (audio/extract-audio.ts).
 */
import { extractAudioChunks } from "../audio/extract-audio.ts";
import type { JobHandler } from "../runtime/job-registry.ts";

export const extractAudioJob: JobHandler<"extractAudio"> = (req, onProgress, signal) =>
	extractAudioChunks(req, onProgress, signal);
