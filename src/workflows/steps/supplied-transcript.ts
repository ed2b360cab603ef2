/**
 * Steps "fetch the source's subtitles" and "read the supplied words": a video whose words come
 * from captions the user supplied, or from its source's own subtitles, skips extracting and
 * transcribing the audio. The cues become the same stored transcript a transcription gives (only
 * the time frame's words), so everything after (chapters, ranking, captions) is the same.
 */
import { NonRetryableError } from "cloudflare:workflows";
import { recordTranscribedInstead, recordTranscript } from "../../worker/db/videos";
import { frameOf } from "../../worker/domain/video-config";
import { r2Keys } from "../../worker/services/r2-keys";
import { createRenderClient, RenderTierError } from "../../worker/services/render-client";
import { renderInstance } from "../../worker/services/render-instances";
import { signInternalObjectUrl } from "../../worker/services/signing";
import { guessLanguage, parseCaptions, transcriptFromCues, type Cue } from "@clipforge/moments/text";
import { putJson, readJson, type LoadedVideo, type VideoRun } from "./run";

export interface ReadWords {
	key: string;
	words: number;
	language: string;
}

/**
 * The source's subtitle track into R2 (the tier's `subtitles` job). False when the site no longer
 * serves it (a permanent refusal): the video is then transcribed after all.
 */
export async function fetchSourceSubtitles(run: VideoRun, video: LoadedVideo): Promise<{ fetched: boolean }> {
	const track = video.transcript?.subtitleTrack;
	if (!track) return { fetched: false };
	const key = r2Keys.sourceSubtitles(run.videoId);
	if (await run.env.MEDIA.head(key)) return { fetched: true };
	try {
		await createRenderClient(run.env, renderInstance.video(run.env, run.videoId)).run("subtitles", {
			videoId: run.videoId,
			url: video.sourceUrl,
			lang: track.lang,
			automatic: track.automatic,
			putUrl: await signInternalObjectUrl(run.env, key, "PUT"),
		});
		return { fetched: true };
	} catch (error) {
		if (!(error instanceof RenderTierError) || error.retryable) throw error;
		await recordTranscribedInstead(run.db, run.videoId);
		return { fetched: false };
	}
}

/** The supplied captions or the fetched subtitles as the video's stored transcript (the time frame's words only). */
export async function readSuppliedWords(run: VideoRun, video: LoadedVideo): Promise<ReadWords> {
	const cues = await storedCues(run, video);
	const language = video.transcript?.language ?? guessLanguage(cues.map((c) => c.text).join(" ")) ?? "und";
	const transcript = transcriptFromCues(cues, {
		duration: video.duration,
		language,
		frame: frameOf(video.config, video.duration),
	});
	if (transcript.words.length === 0) {
		const from = video.transcript?.source === "subtitles" ? "The source's subtitles" : "The supplied captions";
		throw new NonRetryableError(
			`${from} have no words in the video's time frame, so there is nothing to clip. The minutes were refunded.`,
		);
	}
	const key = r2Keys.transcript(run.videoId);
	await putJson(run, key, transcript);
	await recordTranscript(run.db, run.videoId, key, language);
	return { key, words: transcript.words.length, language };
}

async function storedCues(run: VideoRun, video: LoadedVideo): Promise<Cue[]> {
	if (video.transcript?.source === "captions") return readJson<Cue[]>(run, r2Keys.suppliedCaptions(run.videoId));
	const object = await run.env.MEDIA.get(r2Keys.sourceSubtitles(run.videoId));
	if (!object) throw new NonRetryableError("The source's subtitles are missing.");
	try {
		return parseCaptions(await object.text());
	} catch (error) {
		throw new NonRetryableError(`The source's subtitles could not be read: ${(error as Error).message}`);
	}
}
