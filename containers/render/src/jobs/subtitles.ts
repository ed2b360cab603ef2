/** `subtitles`: one of the source's own subtitle tracks, fetched without the media and stored (source/subtitles.ts). */
import type { JobHandler } from "../runtime/job-registry.ts";
import { fetchSubtitles } from "../source/subtitles.ts";

export const subtitlesJob: JobHandler<"subtitles"> = (req, _onProgress, signal) => fetchSubtitles(req, signal);
