/**
 * What the clip routes share: a clip of the caller's workspaces with its video, its caption words,
 * and the detail GET and PATCH /api/clips/{id} answer with.
 */
import type { z } from "@hono/zod-openapi";
import { retimeWords, type Word } from "@clipforge/contract";
import type { Transcript } from "@clipforge/moments/text";
import { findClipIn, type ClipRow } from "../../../db/clips";
import type { Db } from "../../../db/client";
import { findVideoById, type VideoRow } from "../../../db/videos";
import { clipWords, relativeWords, type CaptionFix } from "../../../domain/clip-edit";
import { ApiError } from "../../../errors";
import type { ClipDetail } from "../videos/schemas";
import { clipView } from "../videos/views";

/** A clip of the caller's workspaces and its video, or 404. */
export async function loadClip(
	db: Db,
	id: string,
	workspaceIds: string[],
): Promise<{ clip: ClipRow; video: VideoRow }> {
	const clip = await findClipIn(db, id, workspaceIds);
	const video = clip ? await findVideoById(db, clip.videoId) : undefined;
	if (!clip || !video) throw new ApiError("not_found", `Clip ${id} was not found.`);
	return { clip, video };
}

/** The clip's caption words (corrected), source time; null when the transcript is not (or no longer) stored. */
export async function wordsOfClip(env: Pick<Env, "MEDIA">, video: VideoRow, clip: ClipRow): Promise<Word[] | null> {
	const object = video.transcriptKey ? await env.MEDIA.get(video.transcriptKey) : null;
	if (!object) return null;
	const transcript = (await object.json()) as Transcript;
	return clipWords(transcript.words, clip.startTime, clip.endTime, clip.captionFixes as CaptionFix[] | null);
}

export async function detailOf(
	env: Env,
	origin: string,
	video: VideoRow,
	clip: ClipRow,
): Promise<z.infer<typeof ClipDetail>> {
	const [view, words] = await Promise.all([clipView(env, origin, clip), wordsOfClip(env, video, clip)]);
	// Times as the clip plays them: after the pauses cut out of it, if any.
	return {
		...view,
		words: retimeWords(relativeWords(words ?? [], clip.startTime, clip.endTime), clip.jumpCuts).map((w, index) => ({
			index,
			...w,
		})),
	};
}
