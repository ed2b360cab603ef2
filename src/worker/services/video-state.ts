/** Ending a video that failed: a readable message on the video, and every minute back (once). */
import type { Db } from "../db/client";
import { refundVideo } from "../db/ledger";
import { markFailed } from "../db/videos";

export async function markFailedAndRefund(db: Db, videoId: string, errorMessage: string): Promise<void> {
	const message = errorMessage.slice(0, 1000);
	await markFailed(db, videoId, message);
	await refundVideo(db, videoId, `refund: ${message}`);
}
