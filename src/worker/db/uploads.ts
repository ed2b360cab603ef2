/**
 * Uploads and their stored parts (services/uploads.ts says what they are for). The status moves
 * only forward, each step a guarded UPDATE: `uploading` → `completed` → `used`; the claim by a
 * video is in the video's own charge batch (videos.ts `createChargedVideo`).
 */
import { and, asc, eq, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import { OPEN_UPLOAD_STATUSES } from "@clipforge/domain";
import { AFTER_CHANGE, names, NOW, runBatch, type Db } from "./client";
import { uploadParts, uploads } from "./schema";

export type UploadRow = typeof uploads.$inferSelect;
export type UploadPartRow = typeof uploadParts.$inferSelect;
export type NewUpload = Omit<typeof uploads.$inferInsert, "status" | "completedAt" | "createdAt">;

const u = uploads;
/** Holding storage: uploading, or completed and not yet made into a video. */
const open = inArray(uploads.status, [...OPEN_UPLOAD_STATUSES]);

/**
 * Inserts the upload unless the workspace already has `limit` open ones (one statement, so
 * concurrent creations cannot pass the limit together). False when refused.
 */
export async function createUploadWithin(db: Db, limit: number, upload: NewUpload): Promise<boolean> {
	const [result] = await runBatch(db, [
		sql`INSERT INTO ${u} (${names(u.id, u.workspaceId, u.videoId, u.objectKey, u.r2UploadId, u.fileName, u.contentType, u.size, u.partSize, u.partCount, u.status, u.expiresAt)})
			SELECT ${upload.id}, ${upload.workspaceId}, ${upload.videoId}, ${upload.objectKey}, ${upload.r2UploadId}, ${upload.fileName}, ${upload.contentType},
				${upload.size}, ${upload.partSize}, ${upload.partCount}, 'uploading', ${upload.expiresAt}
			WHERE (SELECT COUNT(*) FROM ${u} WHERE ${u.workspaceId} = ${upload.workspaceId} AND ${open}) < ${limit}`,
	]);
	return result?.meta.changes === 1;
}

export async function openUploadCount(db: Db, workspaceId: string): Promise<number> {
	const [row] = await db
		.select({ n: sql<number>`COUNT(*)` })
		.from(uploads)
		.where(and(eq(uploads.workspaceId, workspaceId), open));
	return row?.n ?? 0;
}

/** An upload of one of these workspaces (others' are as absent as unknown ones). */
export async function findUpload(db: Db, id: string, workspaceIds: string[]): Promise<UploadRow | null> {
	const [row] = await db
		.select()
		.from(uploads)
		.where(and(eq(uploads.id, id), inArray(uploads.workspaceId, workspaceIds)))
		.limit(1);
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
export async function recordPart(
	db: Db,
	part: { uploadId: string; partNumber: number; etag: string; size: number },
): Promise<boolean> {
	const p = uploadParts;
	const [result] = await runBatch(db, [
		sql`INSERT INTO ${p} (${names(p.uploadId, p.partNumber, p.etag, p.size)})
			SELECT ${part.uploadId}, ${part.partNumber}, ${part.etag}, ${part.size}
			WHERE EXISTS (SELECT 1 FROM ${u} WHERE ${u.id} = ${part.uploadId} AND ${u.status} = 'uploading')
			ON CONFLICT (${names(p.uploadId, p.partNumber)}) DO UPDATE SET ${names(p.etag)} = excluded.${names(p.etag)}, ${names(p.size)} = excluded.${names(p.size)}, ${names(p.createdAt)} = ${NOW}`,
	]);
	return result?.meta.changes === 1;
}

/** `uploading` → `completed`; false when it was not uploading any more. */
export async function markUploadCompleted(db: Db, id: string): Promise<boolean> {
	const result = await db
		.update(uploads)
		.set({ status: "completed", completedAt: NOW })
		.where(and(eq(uploads.id, id), eq(uploads.status, "uploading")))
		.run();
	return result.meta.changes === 1;
}

/**
 * Marks an upload that no video uses as `deleting` (its storage is about to be released), so it
 * can no longer be completed, used or counted as open; a `deleting` one (a release that failed
 * before) is claimed again. False when it was used (or gone) meanwhile.
 */
export async function claimForDeletion(db: Db, id: string): Promise<boolean> {
	const result = await db
		.update(uploads)
		.set({ status: "deleting" })
		.where(and(eq(uploads.id, id), inArray(uploads.status, [...OPEN_UPLOAD_STATUSES, "deleting"])))
		.run();
	return result.meta.changes === 1;
}

/** Removes a `deleting` upload's rows, once its storage was released. */
export async function deleteUploadRows(db: Db, id: string): Promise<void> {
	await runBatch(db, [
		db.delete(uploadParts).where(eq(uploadParts.uploadId, id)),
		db.delete(uploads).where(and(eq(uploads.id, id), eq(uploads.status, "deleting"))),
	]);
}

/** The cron's work, oldest first: open uploads past their expiry, and deletions whose release failed. */
export function expiredUploads(db: Db, nowIso: string, limit: number): Promise<UploadRow[]> {
	return db
		.select()
		.from(uploads)
		.where(or(and(open, lt(uploads.expiresAt, nowIso)), eq(uploads.status, "deleting")))
		.orderBy(asc(uploads.expiresAt))
		.limit(limit);
}

/**
 * The statements a video's charge batch adds to claim its upload: the charge only happens while
 * the upload is still `completed` (a precondition on the balance UPDATE), and the claim only when
 * the video row was created.
 */
export const uploadClaim = {
	/** A guard of the charge: the upload is still `completed` (no other submission claimed it). */
	stillCompleted: (uploadId: string): SQL =>
		sql`EXISTS (SELECT 1 FROM ${u} WHERE ${u.id} = ${uploadId} AND ${u.status} = 'completed')`,
	/** Right after the video's first event: only when this batch created the video. */
	claim: (uploadId: string): SQL =>
		sql`UPDATE ${u} SET ${names(u.status)} = 'used' WHERE ${u.id} = ${uploadId} AND ${u.status} = 'completed' AND ${AFTER_CHANGE}`,
};

export async function uploadStillCompleted(db: Db, uploadId: string): Promise<boolean> {
	const [row] = await db.select({ status: uploads.status }).from(uploads).where(eq(uploads.id, uploadId)).limit(1);
	return row?.status === "completed";
}
