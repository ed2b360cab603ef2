/** Steps "download source" and "upload source": the tier fetches the source, then stores it in R2. */
import { enterStage, recordSource } from "../../worker/db/videos";
import { progressAt } from "../../worker/domain/progress";
import { r2Keys } from "../../worker/services/r2-keys";
import { renderInstance } from "../../worker/services/render-instances";
import { signInternalObjectUrl } from "../../worker/services/signing";
import { renderJob, reporter, type LoadedVideo, type VideoRun } from "./run";

export async function downloadSource(run: VideoRun, video: LoadedVideo) {
	await enterStage(run.db, run.videoId, "downloading", 0);
	return renderJob(run, "Downloading the source", renderInstance.video(run.videoId), "download", downloadRequest(run, video), reporter(run, "downloading"));
}

/** Skipped when R2 already has it (a repeated step). */
export async function uploadSource(run: VideoRun, video: LoadedVideo): Promise<{ key: string; bytes: number }> {
	await enterStage(run.db, run.videoId, "uploading", progressAt("uploading", 0));
	const key = r2Keys.source(run.videoId);
	let bytes = (await run.env.MEDIA.head(key))?.size;
	if (bytes === undefined) {
		const putUrl = await signInternalObjectUrl(run.env, key, "PUT");
		const result = await renderJob(run, "Storing the source", renderInstance.video(run.videoId), "uploadSource", { ...downloadRequest(run, video), putUrl }, reporter(run, "uploading"));
		bytes = result.bytes;
	}
	await recordSource(run.db, run.videoId, key);
	return { key, bytes };
}

/**
 * The source under the plan's limits, and the duration probed (and charged) at submission: the
 * tier refuses a download that lasts otherwise (the server changed the file) or breaks the limits.
 */
function downloadRequest(run: VideoRun, video: LoadedVideo) {
	return { videoId: run.videoId, url: video.sourceUrl, limits: video.sourceLimits, expectedDuration: video.duration };
}
