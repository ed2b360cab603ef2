/**
 * Steps "download source" and "upload source": the tier fetches the source, then stores it in R2,
 * cut to the video's time frame (only what was paid for is kept: domain/sources.ts). An uploaded
 * file (sourceType `upload`) is in R2 already, at the video's source key: nothing is fetched from
 * anywhere; when its frame is narrower than the file, the tier copies the frame out of it into a
 * key of its own and the rest of the upload is deleted, else both steps only check it is there.
 */
import { NonRetryableError } from "cloudflare:workflows";
import { recordSource, recordSourceFrame } from "../../worker/db/videos";
import { storedFrameOf } from "../../worker/domain/sources";
import { r2Keys } from "../../worker/services/r2-keys";
import { renderInstance } from "../../worker/services/render-instances";
import { signInternalObjectUrl } from "../../worker/services/signing";
import { renderJob, storedSource, type LoadedVideo, type StepProgressReport, type VideoRun } from "./run";

/** The source into the tier (or an upload's time frame kept); its stages are the runner's (video-plan.ts FIRST_RUN_PROGRESS). */
export async function downloadSourceStep(run: VideoRun, video: LoadedVideo, progress: StepProgressReport) {
	return video.sourceType === "upload" ? keepUploadFrame(run, video) : download(run, video, progress);
}

/** The tier downloads the source and keeps its time frame; where the kept file begins is recorded first. */
async function download(run: VideoRun, video: LoadedVideo, progress: StepProgressReport) {
	await recordSourceFrame(run.db, run.videoId, storedFrameOf(video.config, video.duration)?.start ?? 0);
	return renderJob(
		run,
		"Downloading the source",
		renderInstance.video(run.env, run.videoId),
		"download",
		downloadRequest(run, video),
		progress,
	);
}

/**
 * An upload wider than its time frame: the tier copies the frame out (on the video's instance, so
 * the audio and the loudness read its local copy), into the frame's own key, which becomes the
 * video's source; the upload itself is then deleted. Skipped when the frame is stored already.
 */
async function keepUploadFrame(run: VideoRun, video: LoadedVideo): Promise<{ bytes: number }> {
	const frame = storedFrameOf(video.config, video.duration);
	if (!frame) return { bytes: await storedUploadBytes(run) };
	const upload = r2Keys.source(run.videoId);
	const key = r2Keys.framedSource(run.videoId);
	let bytes = (await run.env.MEDIA.head(key))?.size;
	if (bytes === undefined) {
		await storedUploadBytes(run);
		const [url, putUrl] = await Promise.all([
			signInternalObjectUrl(run.env, upload, "GET"),
			signInternalObjectUrl(run.env, key, "PUT"),
		]);
		const request = { videoId: run.videoId, url, putUrl, frame, upload: true, expectedDuration: null };
		const limits = video.sourceLimits ? { limits: video.sourceLimits } : {};
		const instance = renderInstance.video(run.env, run.videoId);
		const what = "Keeping the upload's time frame";
		bytes = (await renderJob(run, what, instance, "uploadSource", { ...request, ...limits })).bytes;
	}
	await recordSourceFrame(run.db, run.videoId, frame.start, key);
	// The rest of the upload was not paid for: it is not kept.
	await run.env.MEDIA.delete(upload);
	return { bytes };
}

/** Skipped when R2 already has it (a repeated step). */
export async function uploadSource(
	run: VideoRun,
	video: LoadedVideo,
	progress: StepProgressReport,
): Promise<{ key: string; bytes: number }> {
	const { key } = await storedSource(run);
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
			progress,
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
	return {
		videoId: run.videoId,
		url: video.sourceUrl,
		limits: video.sourceLimits,
		expectedDuration: video.duration,
		frame: storedFrameOf(video.config, video.duration),
	};
}

/** The uploaded file's size; a missing one (deleted meanwhile) fails the video, refunded. */
async function storedUploadBytes(run: VideoRun): Promise<number> {
	const object = await run.env.MEDIA.head(r2Keys.source(run.videoId));
	if (!object) throw new NonRetryableError("The uploaded file is no longer stored.");
	return object.size;
}
