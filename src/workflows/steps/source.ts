/**
 * Steps "download source" and "upload source": the tier fetches the source, then stores it in R2.
 * An uploaded file (sourceType `upload`) is in R2 already, at the video's source key: nothing is
 * fetched from anywhere, both steps only check it is there and move through their stages.
 */
import { NonRetryableError } from "cloudflare:workflows";
import { enterStage, recordSource } from "../../worker/db/videos";
import { progressAt } from "../../worker/domain/progress";
import { r2Keys } from "../../worker/services/r2-keys";
import { renderInstance } from "../../worker/services/render-instances";
import { signInternalObjectUrl } from "../../worker/services/signing";
import { renderJob, reporter, type LoadedVideo, type VideoRun } from "./run";

/**
 * Ends in `uploading`: the upload, the audio and the loudness all start from the downloaded file
 * at once (video-plan.ts), so the stage moves here rather than in whichever of them starts first.
 */
export async function downloadSourceStep(run: VideoRun, video: LoadedVideo) {
	await enterStage(run.db, run.videoId, "downloading", 0);
	const result =
		video.sourceType === "upload"
			? { bytes: await storedUploadBytes(run) }
			: await renderJob(
					run,
					"Downloading the source",
					renderInstance.video(run.env, run.videoId),
					"download",
					downloadRequest(run, video),
					reporter(run, "downloading"),
				);
	await enterStage(run.db, run.videoId, "uploading", progressAt("uploading", 0));
	return result;
}

/** Skipped when R2 already has it (a repeated step). */
export async function uploadSource(run: VideoRun, video: LoadedVideo): Promise<{ key: string; bytes: number }> {
	await enterStage(run.db, run.videoId, "uploading", progressAt("uploading", 0));
	const key = r2Keys.source(run.videoId);
	let bytes = (await run.env.MEDIA.head(key))?.size;
	if (bytes === undefined && video.sourceType === "upload") bytes = await storedUploadBytes(run);
	if (bytes === undefined) {
		const putUrl = await signInternalObjectUrl(run.env, key, "PUT");
		const result = await renderJob(
			run,
			"Storing the source",
			renderInstance.video(run.env, run.videoId),
			"uploadSource",
			{ ...downloadRequest(run, video), putUrl },
			reporter(run, "uploading"),
		);
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

/** The uploaded file's size; a missing one (deleted meanwhile) fails the video, refunded. */
async function storedUploadBytes(run: VideoRun): Promise<number> {
	const object = await run.env.MEDIA.head(r2Keys.source(run.videoId));
	if (!object) throw new NonRetryableError("The uploaded file is no longer stored.");
	return object.size;
}
