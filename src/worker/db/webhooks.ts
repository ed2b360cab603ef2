/** Webhook deliveries of a video: where its events go (its own URL or its workspace's) and every attempt. */
import { and, asc, count, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "./client";
import { clips, videos, webhookDeliveries, workspaces } from "./schema";

export interface WebhookTargetRow {
	video: {
		id: string;
		title: string;
		status: string;
		errorMessage: string | null;
		sourceType: string;
		sourceUrl: string;
		workspaceId: string;
		createdAt: string;
		completedAt: string | null;
	};
	/** The submission's own URL, else the workspace's. */
	url: string | null;
	secret: string | null;
	clipsCount: number;
}

const c = alias(clips, "c");
/** The video's rendered clips. */
const renderedClips = sql<number>`(SELECT COUNT(*) FROM ${clips} ${c} WHERE ${c.videoId} = ${videos.id} AND ${c.status} = 'completed')`;

export async function webhookTargetOf(db: Db, videoId: string): Promise<WebhookTargetRow | null> {
	const row = await db
		.select({
			id: videos.id,
			title: videos.title,
			status: videos.status,
			errorMessage: videos.errorMessage,
			sourceType: videos.sourceType,
			sourceUrl: videos.sourceUrl,
			workspaceId: videos.workspaceId,
			createdAt: videos.createdAt,
			completedAt: videos.completedAt,
			url: sql<string | null>`COALESCE(${videos.webhookUrl}, ${workspaces.webhookUrl})`,
			secret: workspaces.webhookSecret,
			clipsCount: renderedClips,
		})
		.from(videos)
		.innerJoin(workspaces, eq(workspaces.id, videos.workspaceId))
		.where(eq(videos.id, videoId))
		.get();
	if (!row) return null;
	const { url, secret, clipsCount, ...video } = row;
	return { video, url, secret, clipsCount };
}

export async function webhookAttempts(db: Db, videoId: string, event: string): Promise<number> {
	const row = await db
		.select({ n: count() })
		.from(webhookDeliveries)
		.where(and(eq(webhookDeliveries.videoId, videoId), eq(webhookDeliveries.event, event)))
		.get();
	return row?.n ?? 0;
}

export async function recordWebhookDelivery(db: Db, delivery: typeof webhookDeliveries.$inferInsert): Promise<void> {
	await db.insert(webhookDeliveries).values(delivery);
}

export function webhookDeliveriesOf(db: Db, videoId: string) {
	return db
		.select()
		.from(webhookDeliveries)
		.where(eq(webhookDeliveries.videoId, videoId))
		.orderBy(asc(webhookDeliveries.id))
		.all();
}
