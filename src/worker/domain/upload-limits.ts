/**
 * How a file is cut into parts for an upload, and the bounds on uploads. No I/O.
 *
 * R2's multipart rules: every part but the last at least 5 MiB and all of the same size, at most
 * 10,000 parts. Workers take request bodies of 100 MB on every plan, so a part stays well under.
 */
const MiB = 1024 ** 2;

export const UPLOAD_LIMITS = {
	/** R2's minimum for every part but the last. */
	minPartBytes: 5 * MiB,
	/** What a client gets unless it asks for another size. */
	defaultPartBytes: 16 * MiB,
	/** Under the 100 MB request body of every Workers plan, with room for a slow client. */
	maxPartBytes: 50 * MiB,
	/** Far under R2's 10,000; the part size grows (to maxPartBytes) to keep a large file within it. */
	maxParts: 1000,
	/** Uploads of a workspace not yet made into videos (uploading or completed); more → 409 quota_exceeded. */
	maxOpenPerWorkspace: 5,
	/** Part PUTs per upload per minute (the PART_LIMITER binding, wrangler.toml); more → 429. */
	partWritesPerMinute: 300,
	/** An upload not made into a video by then is aborted and deleted by the cron. */
	ttlSeconds: 24 * 60 * 60,
} as const;

/** Content types a video file is sent with (browsers name .mov, .mkv, .webm … by their own types; some send none). */
export const VIDEO_CONTENT_TYPE = /^(video\/[\w.+-]{1,64}|application\/(octet-stream|mp4|x-matroska))$/i;

export interface PartPlan {
	partSize: number;
	partCount: number;
}

/**
 * The part size (the requested one, or the default, raised so the file fits in maxParts parts,
 * rounded up to whole MiB) and the number of parts; null when the file would need parts larger
 * than maxPartBytes.
 * @example planParts(40 * 1024 ** 2) // { partSize: 16 MiB, partCount: 3 }
 */
export function planParts(size: number, requestedPartSize?: number): PartPlan | null {
	const wanted = requestedPartSize ?? UPLOAD_LIMITS.defaultPartBytes;
	const needed = Math.ceil(Math.ceil(size / UPLOAD_LIMITS.maxParts) / MiB) * MiB;
	const partSize = Math.max(wanted, needed);
	if (partSize > UPLOAD_LIMITS.maxPartBytes) return null;
	return { partSize, partCount: Math.max(1, Math.ceil(size / partSize)) };
}

/** Bytes part `partNumber` (1-based) must have: the part size, the remainder for the last. */
export function expectedPartBytes(
	upload: { size: number; partSize: number; partCount: number },
	partNumber: number,
): number {
	return partNumber < upload.partCount ? upload.partSize : upload.size - upload.partSize * (upload.partCount - 1);
}
