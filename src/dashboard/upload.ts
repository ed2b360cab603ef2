/**
 * A video file uploaded from the browser: POST /api/uploads, each part PUT to the upload's signed
 * part URL (XMLHttpRequest, for byte-level progress), POST …/complete. The upload's id is kept in
 * localStorage per file (name, size, last change), so choosing the same file after a reload sends
 * only the parts the API does not have yet.
 */
import { api, call, DashboardApiError, type Schemas } from "./api";

type Upload = Schemas["Upload"];

export interface UploadProgress {
	sentBytes: number;
	totalBytes: number;
	resumed: boolean;
}

const PARALLEL_PARTS = 3;
const PART_ATTEMPTS = 4;

const memoKey = (file: File) => `clipforge-upload:${file.name}:${file.size}:${file.lastModified}`;

/** Uploads `file` (resuming an earlier upload of the same file) and answers the completed upload's id. */
export async function uploadFile(
	file: File,
	workspaceId: string,
	onProgress: (progress: UploadProgress) => void,
): Promise<string> {
	const upload =
		(await resumable(file)) ??
		(await call(
			api.POST("/api/uploads", {
				body: {
					fileName: file.name,
					size: file.size,
					contentType: file.type || "application/octet-stream",
					workspaceId,
				},
			}),
		));
	localStorage.setItem(memoKey(file), upload.id);
	if (upload.status !== "uploading") return upload.id;
	const done = new Map(upload.parts.map((p) => [p.partNumber, p.size]));
	const inFlight = new Map<number, number>();
	const report = () => {
		let sent = 0;
		for (const size of done.values()) sent += size;
		for (const size of inFlight.values()) sent += size;
		onProgress({ sentBytes: sent, totalBytes: file.size, resumed: upload.parts.length > 0 });
	};
	report();
	const queue = [...upload.missingParts];
	const lane = async () => {
		for (let n = queue.shift(); n !== undefined; n = queue.shift()) {
			const partNumber = n;
			const start = (partNumber - 1) * upload.partSize;
			const blob = file.slice(start, Math.min(file.size, start + upload.partSize));
			await putPart(upload.partUrlTemplate!.replace("{partNumber}", String(partNumber)), blob, (loaded) => {
				inFlight.set(partNumber, loaded);
				report();
			});
			inFlight.delete(partNumber);
			done.set(partNumber, blob.size);
			report();
		}
	};
	await Promise.all(Array.from({ length: PARALLEL_PARTS }, lane));
	await call(api.POST("/api/uploads/{id}/complete", { params: { path: { id: upload.id } } }));
	return upload.id;
}

/** Forgets the file's upload once a video was made of it. */
export function forgetUpload(file: File): void {
	localStorage.removeItem(memoKey(file));
}

/** The upload an earlier visit started for this very file, if the API still has it for us. */
async function resumable(file: File): Promise<Upload | null> {
	const id = localStorage.getItem(memoKey(file));
	if (!id) return null;
	try {
		const upload = await call(api.GET("/api/uploads/{id}", { params: { path: { id } } }));
		if (upload.size === file.size && upload.status !== "used") return upload;
	} catch {
		// expired or deleted: start afresh
	}
	localStorage.removeItem(memoKey(file));
	return null;
}

/** One part, retried on network errors and 5xx (a part sent again replaces itself). */
async function putPart(url: string, blob: Blob, onLoaded: (bytes: number) => void): Promise<void> {
	for (let attempt = 1; ; attempt++) {
		const outcome = await new Promise<{ status: number; body: string }>((resolve) => {
			const xhr = new XMLHttpRequest();
			xhr.open("PUT", url);
			xhr.setRequestHeader("content-type", "application/octet-stream");
			xhr.upload.onprogress = (event) => onLoaded(event.loaded);
			xhr.onload = () => resolve({ status: xhr.status, body: xhr.responseText });
			xhr.onerror = () => resolve({ status: 0, body: "" });
			xhr.send(blob);
		});
		if (outcome.status >= 200 && outcome.status < 300) return;
		const retryable = outcome.status === 0 || outcome.status === 429 || outcome.status >= 500;
		if (!retryable || attempt >= PART_ATTEMPTS) {
			let body = null;
			try {
				body = JSON.parse(outcome.body);
			} catch {
				// not the API's error body
			}
			throw new DashboardApiError(
				outcome.status,
				body ?? {
					error: {
						message:
							outcome.status === 0 ? "The upload was interrupted (network)." : `HTTP ${outcome.status}`,
					},
				},
			);
		}
		onLoaded(0);
		await new Promise((resolve) => setTimeout(resolve, 1000 * 2 ** (attempt - 1)));
	}
}
