/**
 * The part loop of a resumable upload, on web standards only, shared by the Node client's
 * `uploadFile` (a file on disk) and the dashboard (a browser `File`): the parts the API does not
 * hold yet, `concurrency` at a time (each retried by `putPart`), progress after every stored part,
 * then the completion.
 */
import type { ApiClient } from "./api-client.ts";
import type { Upload } from "./client-types.ts";

export interface UploadProgress {
	/** Bytes stored so far (whole parts), of `totalBytes`. */
	uploadedBytes: number;
	totalBytes: number;
	partsDone: number;
	partCount: number;
	uploadId: string;
}

/** What is uploaded: its size and a read of any stretch of it (a file handle's read, a Blob's slice). */
export interface UploadSource {
	size: number;
	read(offset: number, length: number): Promise<Uint8Array | Blob>;
}

export interface SendPartsOptions {
	/** Parts in flight at once. Default 3. */
	concurrency?: number;
	onProgress?: (progress: UploadProgress) => void;
	signal?: AbortSignal;
}

/** The calls the loop needs (an ApiClient has them). */
export type UploadCalls = Pick<ApiClient, "putPart" | "completeUpload">;

/** Sends the upload's missing parts from `source` and completes it; an upload no longer taking parts is answered as it is. */
export async function sendUploadParts(
	api: UploadCalls,
	upload: Upload,
	source: UploadSource,
	opts: SendPartsOptions = {},
): Promise<Upload> {
	if (upload.status !== "uploading") return upload;
	const stored = new Set(upload.parts.map((p) => p.partNumber));
	let uploadedBytes = upload.parts.reduce((n, p) => n + p.size, 0);
	const report = () =>
		opts.onProgress?.({
			uploadedBytes,
			totalBytes: source.size,
			partsDone: stored.size,
			partCount: upload.partCount,
			uploadId: upload.id,
		});
	report();
	const queue = [...upload.missingParts];
	const lane = async () => {
		for (let n = queue.shift(); n !== undefined; n = queue.shift()) {
			const offset = (n - 1) * upload.partSize;
			const bytes = await source.read(offset, Math.min(upload.partSize, source.size - offset));
			const part = await api.putPart(upload, n, bytes, opts.signal);
			stored.add(part.partNumber);
			uploadedBytes += part.size;
			report();
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, opts.concurrency ?? 3) }, lane));
	return api.completeUpload(upload.id, opts.signal);
}
