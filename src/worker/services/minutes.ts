/**
 * Minutes: charged at submission in one D1 batch (a transaction) that cannot overdraw, refunded in
 * full once when processing fails. Every movement is a ledger row; the balance equals their sum.
 */
import type { VideoConfig } from "../domain/video-config";

export interface NewVideo {
	id: string;
	workspaceId: string;
	projectId: string | null;
	sourceUrl: string;
	title: string;
	status: "pending_config" | "downloading";
	config: VideoConfig | null;
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
export async function chargeAndCreateVideo(db: D1Database, video: NewVideo): Promise<boolean> {
	const cost = video.minutesCharged;
	const charged = "(SELECT changes()) = 1";
	const results = await db.batch([
		db.prepare("UPDATE workspaces SET minutes_balance = minutes_balance - ?1 WHERE id = ?2 AND minutes_balance >= ?1").bind(cost, video.workspaceId),
		db
			.prepare(
				`INSERT INTO videos (id, workspace_id, project_id, source_type, source_url, title, status, progress, config,
				   source_video_id, duration, thumbnail, channel_name, minutes_charged, webhook_url, started_at)
				 SELECT ?1, ?2, ?3, 'hosted', ?4, ?5, ?6, 0, ?7, ?8, ?9, ?10, ?11, ?12, ?13, CASE WHEN ?6 = 'pending_config' THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%fZ', 'now') END
				 WHERE ${charged}`,
			)
			.bind(
				video.id, video.workspaceId, video.projectId, video.sourceUrl, video.title, video.status,
				video.config ? JSON.stringify(video.config) : null, video.sourceVideoId, video.duration,
				video.thumbnail, video.channelName, cost, video.webhookUrl,
			),
		db
			.prepare("INSERT INTO minutes_ledger (workspace_id, video_id, kind, minutes, note) SELECT ?1, ?2, 'charge', -?3, 'video submitted' WHERE EXISTS (SELECT 1 FROM videos WHERE id = ?2)")
			.bind(video.workspaceId, video.id, cost),
		db.prepare("INSERT INTO video_events (video_id, status) SELECT ?1, ?2 WHERE EXISTS (SELECT 1 FROM videos WHERE id = ?1)").bind(video.id, video.status),
	]);
	return results[1]?.meta.changes === 1;
}

/**
 * Gives back everything charged for a video, once: the ledger's unique (video, kind) index makes a
 * second refund a no-op, and the balance only moves when the refund row was really inserted.
 * @returns minutes refunded by this call (0 when already refunded or nothing was charged).
 */
export async function refundVideo(db: D1Database, videoId: string, note: string): Promise<number> {
	const results = await db.batch([
		db
			.prepare(
				`INSERT OR IGNORE INTO minutes_ledger (workspace_id, video_id, kind, minutes, note)
				 SELECT workspace_id, id, 'refund', minutes_charged, ?2 FROM videos WHERE id = ?1 AND minutes_charged > 0`,
			)
			.bind(videoId, note.slice(0, 500)),
		db
			.prepare(
				`UPDATE workspaces SET minutes_balance = minutes_balance + (SELECT minutes_charged FROM videos WHERE id = ?1)
				 WHERE (SELECT changes()) = 1 AND id = (SELECT workspace_id FROM videos WHERE id = ?1)`,
			)
			.bind(videoId),
	]);
	return results[1]?.meta.changes === 1 ? ((await db.prepare("SELECT minutes_charged AS m FROM videos WHERE id = ?").bind(videoId).first<number>("m")) ?? 0) : 0;
}

/** Adds minutes to a workspace with a `grant` ledger row (bootstrap, top-ups). */
export function grantMinutesStatements(db: D1Database, workspaceId: string, minutes: number, note: string): D1PreparedStatement[] {
	return [
		db.prepare("UPDATE workspaces SET minutes_balance = minutes_balance + ?1 WHERE id = ?2").bind(minutes, workspaceId),
		db.prepare("INSERT INTO minutes_ledger (workspace_id, kind, minutes, note) VALUES (?1, 'grant', ?2, ?3)").bind(workspaceId, minutes, note),
	];
}
