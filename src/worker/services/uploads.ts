/**
 * Uploading a file instead of giving a URL: an R2 multipart upload driven through the Worker.
 *
 * POST /api/uploads reserves the id of the video the file may become and starts the multipart
 * upload at that video's source key (r2Keys.source), so `POST /api/videos/upload` needs no copy
 * and the workflow finds the source already stored. Parts go to a URL signed for the upload (a
 * token, not the API key: the stand-in for R2's S3 presigned URLs, which need S3 credentials and do
 * not exist in Miniflare; production may hand out those instead, same shape), each checked for its
 * exact size and recorded in D1 with its ETag, so a client that crashed asks which parts are stored
 * and sends only the others, in any order. Completing checks every part is there.
 */
import { getDb, type Db } from "../db/client";
import { balanceOf } from "../db/ledger";
import {
	claimForDeletion,
	createUploadWithin,
	deleteUploadRows,
	expiredUploads,
	findUploadById,
	markUploadCompleted,
	openUploadCount,
	partsOf,
	recordPart,
	type UploadPartRow,
	type UploadRow,
} from "../db/uploads";
import {
	expectedPartBytes,
	planParts,
	UPLOAD_LIMITS,
	VIDEO_CONTENT_TYPE,
	type PartPlan,
} from "../domain/upload-limits";
import { ApiError } from "../errors";
import { logger } from "../lib/log";
import { sourceLimitsFor } from "../settings";
import { newId } from "./crypto";
import { r2Keys } from "./r2-keys";
import { signUploadToken } from "./signing";
import { assertActivePlan } from "./active-plan";

export interface NewUploadInput {
	workspaceId: string;
	fileName: string;
	size: number;
	contentType: string;
	partSize?: number;
}

export async function createUpload(env: Env, db: Db, input: NewUploadInput): Promise<UploadRow> {
	const parts = await admitUpload(env, db, input);
	const videoId = newId("vid");
	const objectKey = r2Keys.source(videoId);
	const multipart = await env.MEDIA.createMultipartUpload(objectKey, {
		httpMetadata: { contentType: input.contentType },
	});
	const row = {
		id: newId("upl"),
		workspaceId: input.workspaceId,
		videoId,
		objectKey,
		r2UploadId: multipart.uploadId,
		fileName: input.fileName,
		contentType: input.contentType,
		size: input.size,
		...parts,
		expiresAt: new Date(Date.now() + UPLOAD_LIMITS.ttlSeconds * 1000).toISOString(),
	};
	if (!(await createUploadWithin(db, UPLOAD_LIMITS.maxOpenPerWorkspace, row))) {
		await multipart.abort().catch(() => undefined);
		throw quotaFull(await openUploadCount(db, input.workspaceId));
	}
	return { ...row, status: "uploading", completedAt: null, createdAt: new Date().toISOString() };
}

/**
 * Every check an upload passes before any storage is reserved (type, plan, balance, size, parts,
 * open uploads); its parts' plan.
 */
async function admitUpload(env: Env, db: Db, input: NewUploadInput): Promise<PartPlan> {
	if (!VIDEO_CONTENT_TYPE.test(input.contentType)) {
		throw new ApiError(
			"unsupported_source",
			`A ${input.contentType} file is not a video; upload a video file (MP4, MOV, MKV, WebM …).`,
		);
	}
	const plan = await assertActivePlan(db, input.workspaceId);
	// No one should send gigabytes to hear 402 at submission: an empty balance is refused now (the submission checks the real cost).
	const balance = await balanceOf(db, input.workspaceId);
	if (balance <= 0)
		throw new ApiError("insufficient_minutes", `The workspace has ${balance} minutes; a video needs at least 1.`, {
			required: 1,
			balance,
		});
	const { maxBytes } = sourceLimitsFor(env, plan);
	if (input.size > maxBytes) {
		throw new ApiError(
			"payload_too_large",
			`The file is ${formatBytes(input.size)}; the largest video this workspace may upload is ${formatBytes(maxBytes)}.`,
			{ maxBytes, size: input.size },
		);
	}
	const parts = planParts(input.size, input.partSize);
	if (!parts)
		throw new ApiError("payload_too_large", `The file is too large to upload in ${UPLOAD_LIMITS.maxParts} parts.`, {
			maxBytes: UPLOAD_LIMITS.maxParts * UPLOAD_LIMITS.maxPartBytes,
		});
	// Cheap look first (the insert checks again, atomically), so a full quota starts no R2 upload.
	const open = await openUploadCount(db, input.workspaceId);
	if (open >= UPLOAD_LIMITS.maxOpenPerWorkspace) throw quotaFull(open);
	return parts;
}

function quotaFull(used: number): ApiError {
	return new ApiError(
		"quota_exceeded",
		`The workspace has ${used} uploads not yet made into videos (at most ${UPLOAD_LIMITS.maxOpenPerWorkspace}); submit or delete one first.`,
		{
			limit: UPLOAD_LIMITS.maxOpenPerWorkspace,
			used,
		},
	);
}

async function uploadTakingParts(db: Db, uploadId: string): Promise<UploadRow> {
	const upload = await findUploadById(db, uploadId);
	if (!upload) throw new ApiError("not_found", `Upload ${uploadId} was not found.`);
	if (upload.status !== "uploading")
		throw new ApiError(
			"conflict",
			`Upload ${uploadId} is ${upload.status}; parts can only be sent while it is uploading.`,
		);
	return upload;
}

/** The part's expected size and its body, once its number and declared length fit the upload. */
function assertPartFits(
	upload: UploadRow,
	partNumber: number,
	contentLength: number,
	body: ReadableStream | null,
): { expected: number; stream: ReadableStream } {
	if (partNumber > upload.partCount) {
		throw new ApiError(
			"invalid_request",
			`The upload has ${upload.partCount} part(s); there is no part ${partNumber}.`,
			[{ path: "partNumber", message: `1..${upload.partCount}` }],
		);
	}
	const expected = expectedPartBytes(upload, partNumber);
	if (contentLength !== expected || !body) {
		throw new ApiError(
			"invalid_request",
			`Part ${partNumber} must be exactly ${expected} bytes; this one is ${contentLength}.`,
			[{ path: "Content-Length", message: `expected ${expected}` }],
		);
	}
	return { expected, stream: body };
}

/**
 * Stores part `partNumber` of the body (exactly its expected size, streamed to R2 without holding
 * it) and records its ETag. A part sent again replaces the earlier one.
 */
export async function putPart(
	env: Env,
	db: Db,
	uploadId: string,
	partNumber: number,
	body: ReadableStream | null,
	contentLength: number,
): Promise<UploadPartRow> {
	const upload = await uploadTakingParts(db, uploadId);
	const { expected, stream } = assertPartFits(upload, partNumber, contentLength, body);
	// A fixed-length stream: R2 learns the size up front, and a body that ends early or runs long fails.
	const fixed = new FixedLengthStream(expected);
	const piping = stream.pipeTo(fixed.writable).catch(() => undefined);
	let stored: R2UploadedPart;
	try {
		stored = await env.MEDIA.resumeMultipartUpload(upload.objectKey, upload.r2UploadId).uploadPart(
			partNumber,
			fixed.readable,
		);
	} catch (error) {
		throw new ApiError(
			"conflict",
			`Part ${partNumber} could not be stored: ${(error as Error).message.slice(0, 200)}. Send it again.`,
		);
	} finally {
		await piping;
	}
	const part = { uploadId, partNumber, etag: stored.etag, size: expected };
	if (!(await recordPart(db, part)))
		throw new ApiError(
			"conflict",
			`Upload ${uploadId} was completed, aborted or expired while part ${partNumber} arrived.`,
		);
	return { ...part, createdAt: new Date().toISOString() };
}

/** Completes the R2 upload once every part is stored; completing a completed upload answers it again. */
export async function completeUpload(env: Env, db: Db, upload: UploadRow): Promise<UploadRow> {
	if (upload.status !== "uploading") return upload;
	const parts = await partsOf(db, upload.id);
	const missing = missingParts(upload, parts);
	if (missing.length > 0) {
		throw new ApiError(
			"conflict",
			`${missing.length} part(s) are not stored yet (first: ${missing[0]}); send them, then complete.`,
			{ missingParts: missing.slice(0, 100) },
		);
	}
	try {
		await env.MEDIA.resumeMultipartUpload(upload.objectKey, upload.r2UploadId).complete(
			parts.map((p) => ({ partNumber: p.partNumber, etag: p.etag })),
		);
	} catch (error) {
		// Already completed by a concurrent request: the object is there.
		if (!(await env.MEDIA.head(upload.objectKey)))
			throw new ApiError(
				"conflict",
				`The upload could not be completed: ${(error as Error).message.slice(0, 200)}.`,
			);
	}
	const object = await env.MEDIA.head(upload.objectKey);
	if (!object || object.size !== upload.size)
		throw new ApiError(
			"conflict",
			`The stored file has ${object?.size ?? 0} bytes, not the ${upload.size} announced.`,
		);
	await markUploadCompleted(db, upload.id);
	return { ...upload, status: "completed", completedAt: new Date().toISOString() };
}

/**
 * Aborts (or, once completed, deletes) an upload no video uses. The row is claimed first (no
 * completion or submission can take it meanwhile) and removed only once its storage is released:
 * a failed release leaves it `deleting` for the cron to finish, never storage without a row.
 */
export async function deleteUpload(env: Env, db: Db, upload: UploadRow): Promise<void> {
	if (upload.status === "used")
		throw new ApiError(
			"conflict",
			`Upload ${upload.id} is video ${upload.videoId}'s source; delete the video instead.`,
		);
	if (!(await claimForDeletion(db, upload.id)))
		throw new ApiError("conflict", `Upload ${upload.id} was just made into video ${upload.videoId}.`);
	try {
		await releaseStorage(env, upload);
	} catch (error) {
		logReleaseFailure(upload, error);
		throw new ApiError(
			"service_unavailable",
			`Upload ${upload.id}'s storage could not be released just now; it is marked \`deleting\` and will be removed within the hour (or send DELETE again).`,
			{ retryAfter: 30 },
		);
	}
	await deleteUploadRows(db, upload.id);
}

/** R2's answer to aborting a multipart upload that was already completed or aborted (error 10024). */
const NO_SUCH_UPLOAD = /10024|multipart upload does not exist/i;

async function releaseStorage(env: Env, upload: UploadRow): Promise<void> {
	// Whatever the row said when it was read, R2 may have completed or aborted it since: try the abort
	// and accept "no such upload"; any other failure is left for a retry.
	await env.MEDIA.resumeMultipartUpload(upload.objectKey, upload.r2UploadId)
		.abort()
		.catch((error: unknown) => {
			if (!NO_SUCH_UPLOAD.test(String(error))) throw error;
		});
	await env.MEDIA.delete(upload.objectKey);
}

function logReleaseFailure(upload: UploadRow, error: unknown): void {
	logger({ videoId: upload.videoId, workspaceId: upload.workspaceId }).error("upload_release_failed", {
		uploadId: upload.id,
		error,
	});
}

export function missingParts(
	upload: Pick<UploadRow, "partCount">,
	parts: Pick<UploadPartRow, "partNumber">[],
): number[] {
	const stored = new Set(parts.map((p) => p.partNumber));
	return Array.from({ length: upload.partCount }, (_, i) => i + 1).filter((n) => !stored.has(n));
}

/** What GET /api/uploads/:id and the other upload routes answer. */
export async function uploadView(env: Env, db: Db, upload: UploadRow, origin: string) {
	const parts = await partsOf(db, upload.id);
	const token = await signUploadToken(env, upload.id, Date.parse(upload.expiresAt));
	return {
		id: upload.id,
		status: upload.status,
		fileName: upload.fileName,
		contentType: upload.contentType,
		size: upload.size,
		partSize: upload.partSize,
		partCount: upload.partCount,
		partUrlTemplate:
			upload.status === "uploading"
				? `${origin}/api/uploads/${upload.id}/parts/{partNumber}?token=${token}`
				: null,
		parts: parts.map((p) => ({ partNumber: p.partNumber, size: p.size, etag: p.etag })),
		missingParts: upload.status === "uploading" ? missingParts(upload, parts) : [],
		videoId: upload.status === "used" ? upload.videoId : null,
		expiresAt: upload.expiresAt,
		createdAt: upload.createdAt,
		completedAt: upload.completedAt,
	};
}

/**
 * The cron: uploads past their expiry that no video uses, and deletions whose release failed, are
 * released and removed (a bounded batch per run). One failure is logged and left for the next run;
 * the batch goes on.
 */
export async function purgeAbandonedUploads(env: Env, now = Date.now()): Promise<number> {
	const db = getDb(env);
	let purged = 0;
	for (const upload of await expiredUploads(db, new Date(now).toISOString(), 100)) {
		try {
			if (!(await claimForDeletion(db, upload.id))) continue;
			await releaseStorage(env, upload);
			await deleteUploadRows(db, upload.id);
			purged++;
		} catch (error) {
			logReleaseFailure(upload, error);
		}
	}
	if (purged > 0) logger().info("purge_uploads", { uploads: purged });
	return purged;
}

function formatBytes(bytes: number): string {
	return bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(1)} GiB` : `${Math.round(bytes / 1024 ** 2)} MiB`;
}
