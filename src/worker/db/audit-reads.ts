/**
 * What the store's audit reads (services/audit.ts): the row counts, the rows that name R2 objects,
 * and the ledger beside the balances and charges it must add up to.
 */
import { sql } from "drizzle-orm";
import type { Db } from "./client";
import { backgrounds, clips, minutesLedger, videos, workspaces } from "./schema";

export async function storeCounts(db: Db) {
	const [counts] = await db
		.select({
			workspaces: sql<number>`(SELECT COUNT(*) FROM ${workspaces})`,
			videos: sql<number>`(SELECT COUNT(*) FROM ${videos})`,
			clips: sql<number>`(SELECT COUNT(*) FROM ${clips})`,
			ledgerRows: sql<number>`(SELECT COUNT(*) FROM ${minutesLedger})`,
		})
		.from(sql`(SELECT 1)`)
		.all();
	return counts!;
}

/** Clips of videos that did not fail, every video, backgrounds and workspaces: the rows naming objects. */
export async function objectNamingRows(db: Db) {
	const [clipRows, videoRows, backgroundRows, workspaceRows] = await Promise.all([
		db
			.select({ id: clips.id, videoKey: clips.videoKey, thumbnailKey: clips.thumbnailKey, status: clips.status })
			.from(clips)
			.innerJoin(videos, sql`${videos.id} = ${clips.videoId} AND ${videos.status} <> 'failed'`)
			.all(),
		db
			.select({
				id: videos.id,
				status: videos.status,
				sourceKey: videos.sourceKey,
				transcriptKey: videos.transcriptKey,
				sourcePurgedAt: videos.sourcePurgedAt,
			})
			.from(videos)
			.all(),
		db.select({ id: backgrounds.id, key: backgrounds.objectKey }).from(backgrounds).all(),
		db.select({ id: workspaces.id, key: workspaces.watermarkImageKey }).from(workspaces).all(),
	]);
	return { clipRows, videoRows, backgroundRows, workspaceRows };
}

/** Balances, the ledger's sum per workspace and per video and kind, and each video's charge. */
export async function ledgerFacts(db: Db) {
	const l = minutesLedger;
	const [balances, sums, movements, videoRows] = await Promise.all([
		db.select({ id: workspaces.id, balance: workspaces.minutesBalance }).from(workspaces).all(),
		db
			.select({ workspaceId: l.workspaceId, sum: sql<number>`SUM(${l.minutes})` })
			.from(l)
			.groupBy(l.workspaceId)
			.all(),
		db
			.select({
				videoId: l.videoId,
				kind: l.kind,
				rows: sql<number>`COUNT(*)`,
				sum: sql<number>`SUM(${l.minutes})`,
			})
			.from(l)
			.groupBy(l.videoId, l.kind)
			.all(),
		db.select({ id: videos.id, status: videos.status, charged: videos.minutesCharged }).from(videos).all(),
	]);
	return { balances, sums, movements, videoRows };
}
