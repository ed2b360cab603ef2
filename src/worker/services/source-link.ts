/**
 * A link to a video's stored source (GET /api/videos/{id}/source-url). A source link is a
 * delivery: it leaves the service with the video's file, so it is handed out only once the video's
 * charge was delivered (its first run completed: `deliveredAt`), and handing it out is recorded on
 * the video in a guarded write, after which DELETE refunds nothing (db/videos.ts deleteVideoSettled).
 */
import type { Db } from "../db/client";
import { recordSourceLink, type VideoRow } from "../db/videos";
import { ApiError } from "../errors";
import { signSourceUrl } from "./signing";

export async function sourceLinkFor(
	env: Pick<Env, "MEDIA" | "SIGNING_SECRET">,
	db: Db,
	video: VideoRow,
	origin: string,
): Promise<{ url: string; expiresAt: string; startsAt: number }> {
	if (!video.deliveredAt) {
		// A first run that failed was refunded and its files deleted: there is nothing to wait for.
		if (video.status === "failed") throw sourceDeleted("the video failed and its stored files were deleted");
		throw notYet(video.status);
	}
	if (!video.sourceKey || !(await env.MEDIA.head(video.sourceKey))) throw sourceDeleted("it is no longer stored");
	if (!(await recordSourceLink(db, video.id))) throw new ApiError("not_found", `Video ${video.id} was not found.`);
	// Kept cut to its time frame (domain/sources.ts): the file's time 0 is `startsAt` of the source.
	return { ...(await signSourceUrl(env, origin, video.id, video.sourceKey)), startsAt: video.sourceStart };
}

function notYet(status: string): ApiError {
	return new ApiError(
		"conflict",
		`The source is served once the video is completed (it is ${status}): a link to it is a delivery of what the video was charged for.`,
		{ status },
	);
}

function sourceDeleted(why: string): ApiError {
	return new ApiError("source_deleted", `The video's stored source cannot be served: ${why}.`);
}
