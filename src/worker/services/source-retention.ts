/**
 * The cron's retention purge of stored sources (domain/sources.ts): a video's source is deleted
 * SOURCE_RETENTION_DAYS after the video was delivered, so no source is a file hosted for as long
 * as its video exists. Its clips, transcript and chapters stay; its source link, a reprocess and a
 * clip re-render then answer 410 `source_deleted`.
 */
import { getDb } from "../db/client";
import { markSourcePurged, sourcesPastRetention } from "../db/videos";
import { settingsOf } from "../settings";
import { deletePrefixes } from "./video-cleanup";

/** Videos purged per cron run: the next run (5 minutes later) takes the rest. */
const PER_RUN = 50;

export async function purgeExpiredSources(
	env: Pick<Env, "DB" | "MEDIA"> & Parameters<typeof settingsOf>[0],
	now = Date.now(),
): Promise<{ purged: number }> {
	const db = getDb(env);
	const cutoff = new Date(now - settingsOf(env).sourceRetentionDays * 86_400_000).toISOString();
	let purged = 0;
	for (const { id } of await sourcesPastRetention(db, cutoff, PER_RUN)) {
		try {
			// The files first: a failure leaves the row unmarked, so the next run tries again.
			await deletePrefixes(env.MEDIA, [`sources/${id}/`]);
			await markSourcePurged(db, id);
			purged++;
		} catch (error) {
			console.warn(JSON.stringify({ event: "source_purge_failed", videoId: id, error: String(error) }));
		}
	}
	if (purged > 0) console.log(JSON.stringify({ event: "source_purge", purged }));
	return { purged };
}
