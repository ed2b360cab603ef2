/** `signals`: the source's loudness per half second over the charged time frame, stored as JSON (audio/signals.ts). */
import { computeSignals } from "../audio/signals.ts";
import type { JobHandler } from "../runtime/job-registry.ts";

export const signalsJob: JobHandler<"signals"> = (req, onProgress, signal) => computeSignals(req, onProgress, signal);
