/**
 * The tier's jobs by the contract's job table (`renderJobs`, packages/contract/src/jobs.ts): one file
 * per row in this folder, each the handler the server runs for that row's route, calling into its
 * family (source/, audio/, render/, media/). A new row fails to compile here until it has a handler.
 */
import type { JobName } from "@clipforge/contract";
import type { JobHandler } from "../runtime/job-registry.ts";
import { captionPreviewJob } from "./caption-preview.ts";
import { cleanupJob } from "./cleanup.ts";
import { downloadJob } from "./download.ts";
import { extractAudioJob } from "./extract-audio.ts";
import { importMediaJob } from "./import-media.ts";
import { makeBackgroundJob } from "./make-background.ts";
import { probeJob } from "./probe.ts";
import { renderClipJob } from "./render-clip.ts";
import { signalsJob } from "./signals.ts";
import { subtitlesJob } from "./subtitles.ts";
import { transcribeJob } from "./transcribe.ts";
import { uploadSourceJob } from "./upload-source.ts";

export type JobHandlers = { [N in JobName]: JobHandler<N> };

export const jobHandlers: JobHandlers = {
	probe: probeJob,
	subtitles: subtitlesJob,
	download: downloadJob,
	uploadSource: uploadSourceJob,
	extractAudio: extractAudioJob,
	transcribe: transcribeJob,
	renderClip: renderClipJob,
	signals: signalsJob,
	makeBackground: makeBackgroundJob,
	importMedia: importMediaJob,
	cleanup: cleanupJob,
	captionPreview: captionPreviewJob,
};
