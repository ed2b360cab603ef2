/** Ending a video that failed: a readable message on the video, and every minute back (once, and only if this call ended it). */
import type { Db } from "../db/client";
import { failVideo, type FailOutcome } from "../db/videos";

export function markFailedAndRefund(db: Db, videoId: string, errorMessage: string): Promise<FailOutcome> {
	return failVideo(db, videoId, errorMessage, { refund: true });
}

/** A failure the user caused (domain/minutes.ts USER_CAUSED_FAILURES): the video fails, the charge stays. */
export function markFailedByUser(db: Db, videoId: string, errorMessage: string): Promise<FailOutcome> {
	return failVideo(db, videoId, errorMessage, { refund: false });
}
