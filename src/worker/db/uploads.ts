/**
 * Uploads and their stored parts (services/uploads.ts says what they are for). The status moves
 * only forward, each step a guarded UPDATE: `uploading` → `completed` → `used`; the claim by a
 * video is in the video's own charge batch (db/ledger.ts `chargeAndCreateVideo`).
 */
import { and, asc, eq, inArray, lt, sql } from "drizzle-orm";
import { runBatch, type Db } from "./client";
import { OPEN_UPLOAD_STATUSES } from "@clipforge/domain";
import { uploadParts, uploads } from "./schema";

export type UploadRow = typeof uploads.$inferSelect;
export type UploadPartRow = typeof uploadParts.$inferSelect;
export type NewUpload = Omit<typeof uploads.$inferInsert, "status" | "completedAt" | "createdAt">;

/**
 * Inserts the upload unless the workspace already has `limit` open ones (one statement, so
 * concurrent creations cannot pass the limit together). False when refused.
 */
export async function createUploadWithin(db: Db, limit: number, upload: NewUpload): Promise<boolean> {
	const [result] = await runBatch(db, [
		sql`INSERT INTO uploads (id, workspace_id, video_id, object_key, r2_upload_id, file_name, content_type, size, part_size, part_count, status, expires_at)
			SELECT ${upload.id}, ${upload.workspaceId}, ${upload.videoId}, ${upload.objectKey}, ${upload.r2UploadId}, ${upload.fileName}, ${upload.contentType},
				${upload.size}, ${upload.partSize}, ${upload.partCount}, 'uploading', ${upload.expiresAt}
			WHERE (SELECT COUNT(*) FROM uploads WHERE workspace_id = ${upload.workspaceId} AND status IN ('uploading', 'completed')) < ${limit}`,
	]);
	return result?.meta.changes === 1;
}

export async function openUploadCount(db: Db, workspaceId: string): Promise<number> {
	const [row] = await db.select({ n: sql<number>`COUNT(*)` }).from(uploads).where(and(eq(uploads.workspaceId, workspaceId), inArray(uploads.status, [...OPEN_UPLOAD_STATUSES])));
	return row?.n ?? 0;
}

/** An upload of one of these workspaces (others' are as absent as unknown ones). */
export async function findUpload(db: Db, id: string, workspaceIds: string[]): Promise<UploadRow | null> {
	const [row] = await db.select().from(uploads).where(and(eq(uploads.id, id), inArray(uploads.workspaceId, workspaceIds))).limit(1);
	return row ?? null;
}

/** By id alone: the part route, whose credential is a token signed for this upload. */
export async function findUploadById(db: Db, id: string): Promise<UploadRow | null> {
	const [row] = await db.select().from(uploads).where(eq(uploads.id, id)).limit(1);
	return row ?? null;
}

export function partsOf(db: Db, uploadId: string): Promise<UploadPartRow[]> {
	return db.select().from(uploadParts).where(eq(uploadParts.uploadId, uploadId)).orderBy(asc(uploadParts.partNumber));
}

/**
 * A part R2 stored; a part sent again replaces the one before (as R2 does). Only while the upload
 * is still uploading: false when it was aborted, expired or completed meanwhile.
 */
export async function recordPart(db: Db, part: { uploadId: string; partNumber: number; etag: string; size: number }): Promise<boolean> {
	const [result] = await runBatch(db, [
		sql`INSERT INTO upload_parts (upload_id, part_number, etag, size)
			SELECT ${part.uploadId}, ${part.partNumber}, ${part.etag}, ${part.size}
			WHERE EXISTS (SELECT 1 FROM uploads WHERE id = ${part.uploadId} AND status = 'uploading')
			ON CONFLICT (upload_id, part_number) DO UPDATE SET etag = excluded.etag, size = excluded.size, created_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
	]);
	return result?.meta.changes === 1;
}

/** `uploading` → `completed`; false when it was not uploading any more. */
export async function markUploadCompleted(db: Db, id: string): Promise<boolean> {
	const [result] = await runBatch(db, [
		sql`UPDATE uploads SET status = 'completed', completed_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ${id} AND status = 'uploading'`,
	]);
	return result?.meta.changes === 1;
}

/** Removes an upload that no video uses, with its part rows; false when it was used (or gone) meanwhile. */
export async function deleteOpenUpload(db: Db, id: string): Promise<boolean> {
	const results = await runBatch(db, [
		sql`DELETE FROM upload_parts WHERE upload_id = ${id} AND EXISTS (SELECT 1 FROM uploads WHERE id = ${id} AND status IN ('uploading', 'completed'))`,
		sql`DELETE FROM uploads WHERE id = ${id} AND status IN ('uploading', 'completed')`,
	]);
	return results[1]?.meta.changes === 1;
}

/** Open uploads past their expiry (the cron's work), oldest first. */
export function expiredUploads(db: Db, nowIso: string, limit: number): Promise<UploadRow[]> {
	return db
		.select()
		.from(uploads)
		.where(and(inArray(uploads.status, [...OPEN_UPLOAD_STATUSES]), lt(uploads.expiresAt, nowIso)))
		.orderBy(asc(uploads.expiresAt))
		.limit(limit);
}

/**
 * The statements a video's charge batch adds to claim its upload: the charge only happens while
 * the upload is still `completed` (a precondition on the balance UPDATE), and the claim only when
 * the video row was created.
 */
export const uploadClaim = {
	stillCompleted: (uploadId: string) => sql` AND EXISTS (SELECT 1 FROM uploads WHERE id = ${uploadId} AND status = 'completed')`,
	/** Right after the video's first event: only when this batch created the video. */
	claim: (uploadId: string) => sql`UPDATE uploads SET status = 'used' WHERE id = ${uploadId} AND status = 'completed' AND (SELECT changes()) = 1`,
};

export async function uploadStillCompleted(db: Db, uploadId: string): Promise<boolean> {
	const [row] = await db.select({ status: uploads.status }).from(uploads).where(eq(uploads.id, uploadId)).limit(1);
	return row?.status === "completed";
}
