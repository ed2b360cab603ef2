/**
 * `download`: the source onto this instance, checked against the probe and the limits and cut to the
 * charged time frame (source/download.ts).
 */
import type { JobHandler } from "../runtime/job-registry.ts";
import { downloadSource } from "../source/download.ts";

export const downloadJob: JobHandler<"download"> = (req, onProgress, signal) => downloadSource(req, onProgress, signal);
