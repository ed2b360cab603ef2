/**
 * A link to a video's stored source (GET /api/videos/{id}/source-url). A source link is a
 * delivery: it leaves the service with the video's file, so it is handed out only once the video's
 * charge was delivered (its first run completed: `deliveredAt`), and handing it out is recorded on
 * the video in a guarded write, after which DELETE refunds nothing (db/videos.ts deleteVideoSettled).
 * The source is kept for a retention after delivery (domain/sources.ts), then answers 410.
 */
import type { Db } from "../db/client";
import { recordSourceLink, type VideoRow } from "../db/videos";
import { sourceKeptUntil } from "../domain/sources";
import { ApiError } from "../errors";
import { settingsOf } from "../settings";
import { signSourceUrl } from "./signing";

export async function sourceLinkFor(
	env: Pick<Env, "MEDIA" | "SIGNING_SECRET"> & Parameters<typeof settingsOf>[0],
	db: Db,
	video: VideoRow,
	origin: string,
): Promise<{ url: string; expiresAt: string; startsAt: number; keptUntil: string }> {
	if (!video.deliveredAt) {
		// A first run that failed was refunded and its files deleted: there is nothing to wait for.
		if (video.status === "failed") throw sourceDeleted("the video failed and its stored files were deleted");
		throw notYet(video.status);
	}
	const retentionDays = settingsOf(env).sourceRetentionDays;
	const keptUntil = sourceKeptUntil(video.deliveredAt, retentionDays);
	if (video.sourcePurgedAt) throw sourceDeleted(retentionWords(retentionDays, video.sourcePurgedAt));
	if (!video.sourceKey || !(await env.MEDIA.head(video.sourceKey))) throw sourceDeleted("it is no longer stored");
	// The purge got there meanwhile (the guarded write refuses a purged source).
	if (!(await recordSourceLink(db, video.id))) throw sourceDeleted(retentionWords(retentionDays, keptUntil));
	// Kept cut to its time frame (domain/sources.ts): the file's time 0 is `startsAt` of the source.
	const signed = await signSourceUrl(env, origin, video.id, video.sourceKey);
	return { ...signed, startsAt: video.sourceStart, keptUntil };
}

/** Why a source past its retention is gone, in every answer that needs it (its link, a reprocess, a re-render). */
export function retentionWords(retentionDays: number, deletedAt: string): string {
	return `sources are kept ${retentionDays} days after the video completed, and this one was deleted on ${deletedAt.slice(0, 10)}`;
}

/** 410 for a source the retention purge deleted: what needs it (a reprocess, a re-render) says why and what to do. */
export function sourceExpired(env: Parameters<typeof settingsOf>[0], purgedAt: string, what: string): ApiError {
	const why = retentionWords(settingsOf(env).sourceRetentionDays, purgedAt);
	return new ApiError(
		"source_deleted",
		`The stored source of this video is deleted (${why}), so it cannot be ${what}; its clips, transcript and chapters stay. Submit the URL again to work on it further.`,
	);
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
