/**
 * How the render tier stores a file through the Worker's signed PUT URL (`/internal/objects/…`),
 * which the Worker writes to R2. Every request body crosses Cloudflare's edge, whose limit on a
 * request body is the zone plan's: 100 MB on Free and Pro (200 MB Business, 500 MB Enterprise;
 * https://developers.cloudflare.com/workers/platform/limits/#request-limits). A source can be
 * gigabytes, so a file larger than one part goes as an R2 multipart upload through the same
 * signed URL, S3-style:
 *
 * - `POST <url>&uploads` → `{ uploadId }`
 * - `PUT <url>&uploadId=…&partNumber=N` (body: part N, with its Content-Length) → `{ partNumber, etag }`
 * - `POST <url>&uploadId=…` (body: `{ parts: [{ partNumber, etag }] }`) → 201 `{ key, size }`
 * - `DELETE <url>&uploadId=…` → 204 (abort: the parts are dropped)
 *
 * R2's own rules (https://developers.cloudflare.com/r2/objects/multipart-objects/): every part but
 * the last at least 5 MiB and all of the same size, at most 10,000 parts.
 */
import { z } from "zod";

const MiB = 1024 ** 2;

export const OBJECT_UPLOAD_LIMITS = {
	/** The smallest request body limit of a zone (Free and Pro): no single request may be larger. */
	zoneBodyBytes: 100_000_000,
	/** Each part but the last (and the largest file sent in one PUT). Under zoneBodyBytes with room for headers. */
	partBytes: 64 * MiB,
	/** R2: every part but the last at least this. */
	minPartBytes: 5 * MiB,
	/** R2: at most this many parts. */
	maxParts: 10_000,
} as const;

export const MULTIPART_START = "uploads";

export const MultipartStarted = z.object({ uploadId: z.string().min(1) });
export const UploadedPart = z.object({
	partNumber: z.number().int().min(1).max(OBJECT_UPLOAD_LIMITS.maxParts),
	etag: z.string().min(1),
});
export type UploadedPart = z.infer<typeof UploadedPart>;
export const CompleteMultipart = z.object({ parts: z.array(UploadedPart).min(1).max(OBJECT_UPLOAD_LIMITS.maxParts) });
export const StoredObject = z.object({ key: z.string(), size: z.number().int().nonnegative() });

/**
 * The parts a file of `size` bytes goes in: `count` parts of `partBytes`, the last one shorter.
 * @example objectParts(150 * 1024 ** 2) // { partBytes: 67108864, count: 3, last: 23068672 }
 */
export function objectParts(
	size: number,
	partBytes: number = OBJECT_UPLOAD_LIMITS.partBytes,
): { partBytes: number; count: number; last: number } {
	const count = Math.max(1, Math.ceil(size / partBytes));
	return { partBytes, count, last: size - partBytes * (count - 1) };
}
