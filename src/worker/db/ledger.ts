/**
 * The minutes ledger: charged at submission in one D1 batch (a transaction) that cannot overdraw,
 * refunded in full once. Every movement is a ledger row; a workspace's balance equals their sum.
 */
import { eq, sql } from "drizzle-orm";
import { runBatch, type Db } from "./client";
import { videos, workspaces } from "./schema";

export interface NewVideo {
	id: string;
	workspaceId: string;
	projectId: string | null;
	sourceUrl: string;
	title: string;
	status: "pending_config" | "downloading";
	config: unknown;
	sourceVideoId: string;
	duration: number;
	thumbnail: string;
	channelName: string;
	minutesCharged: number;
	webhookUrl: string | null;
}

/**
 * Takes `video.minutesCharged` from the workspace and creates the video, its ledger row and its
 * first event, all or nothing. The UPDATE's `minutes_balance >= cost` guard runs inside the
 * transaction, so concurrent submissions can never take the balance below zero.
 * @returns true when charged and created; false when the balance was too low.
 */
export async function chargeAndCreateVideo(db: Db, video: NewVideo): Promise<boolean> {
	const cost = video.minutesCharged;
	const config = video.config ? JSON.stringify(video.config) : null;
	const results = await runBatch(db, [
		sql`UPDATE workspaces SET minutes_balance = minutes_balance - ${cost} WHERE id = ${video.workspaceId} AND minutes_balance >= ${cost}`,
		sql`INSERT INTO videos (id, workspace_id, project_id, source_type, source_url, title, status, progress, config,
				source_video_id, duration, thumbnail, channel_name, minutes_charged, webhook_url, started_at)
			SELECT ${video.id}, ${video.workspaceId}, ${video.projectId}, 'hosted', ${video.sourceUrl}, ${video.title}, ${video.status}, 0, ${config},
				${video.sourceVideoId}, ${video.duration}, ${video.thumbnail}, ${video.channelName}, ${cost}, ${video.webhookUrl},
				CASE WHEN ${video.status} = 'pending_config' THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%fZ', 'now') END
			WHERE (SELECT changes()) = 1`,
		sql`INSERT INTO minutes_ledger (workspace_id, video_id, kind, minutes, note)
			SELECT ${video.workspaceId}, ${video.id}, 'charge', ${-cost}, 'video submitted' WHERE EXISTS (SELECT 1 FROM videos WHERE id = ${video.id})`,
		sql`INSERT INTO video_events (video_id, status) SELECT ${video.id}, ${video.status} WHERE EXISTS (SELECT 1 FROM videos WHERE id = ${video.id})`,
	]);
	return results[1]?.meta.changes === 1;
}

/**
 * Gives back everything charged for a video, once: the ledger's unique (video, kind) index makes a
 * second refund a no-op, and the balance only moves when the refund row was really inserted.
 * @returns minutes refunded by this call (0 when already refunded or nothing was charged).
 */
export async function refundVideo(db: Db, videoId: string, note: string): Promise<number> {
	const results = await runBatch(db, [
		sql`INSERT OR IGNORE INTO minutes_ledger (workspace_id, video_id, kind, minutes, note)
			SELECT workspace_id, id, 'refund', minutes_charged, ${note.slice(0, 500)} FROM videos WHERE id = ${videoId} AND minutes_charged > 0`,
		sql`UPDATE workspaces SET minutes_balance = minutes_balance + (SELECT minutes_charged FROM videos WHERE id = ${videoId})
			WHERE (SELECT changes()) = 1 AND id = (SELECT workspace_id FROM videos WHERE id = ${videoId})`,
	]);
	if (results[1]?.meta.changes !== 1) return 0;
	const row = await db.select({ minutes: videos.minutesCharged }).from(videos).where(eq(videos.id, videoId)).get();
	return row?.minutes ?? 0;
}

export async function balanceOf(db: Db, workspaceId: string): Promise<number> {
	const row = await db.select({ balance: workspaces.minutesBalance }).from(workspaces).where(eq(workspaces.id, workspaceId)).get();
	return row?.balance ?? 0;
}
