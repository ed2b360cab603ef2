/**
 * `probe` (POST /probe): what a source is (title, duration, picture, subtitle tracks), held to the
 * limits at submission, before anything is charged (source/probe.ts).
 */
import type { JobHandler } from "../runtime/job-registry.ts";
import { probeSource } from "../source/probe.ts";

export const probeJob: JobHandler<"probe"> = (req, _onProgress, signal) =>
	probeSource(req.url, req.limits, signal, { upload: req.upload });
