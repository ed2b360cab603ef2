/**
 * A video file uploaded from the browser through the SDK (`@clipforge/sdk/browser`, bundled into the
 * dashboard's script): POST /api/uploads, the parts PUT to the upload's signed part URL (retried by
 * the SDK's `putPart`), POST …/complete. The upload's id is kept in localStorage per file (name,
 * size, last change), so choosing the same file after a reload sends only the parts the API does
 * not have yet.
 */
import { ClipforgeError, createApiClient, sendUploadParts, type Upload } from "@clipforge/sdk/browser";
import { DashboardApiError } from "./api";

export interface UploadProgress {
	sentBytes: number;
	totalBytes: number;
	resumed: boolean;
}

/** The SDK's client on the page's origin: no API key, the session cookie signs each request. */
const sdk = () => createApiClient({ baseUrl: location.origin });

const memoKey = (file: File) => `clipforge-upload:${file.name}:${file.size}:${file.lastModified}`;

/** Uploads `file` (resuming an earlier upload of the same file) and answers the completed upload's id. */
export async function uploadFile(
	file: File,
	workspaceId: string,
	onProgress: (progress: UploadProgress) => void,
): Promise<string> {
	const client = sdk();
	try {
		const upload =
			(await resumable(client, file)) ??
			(await client.createUpload({
				fileName: file.name,
				size: file.size,
				contentType: file.type || "application/octet-stream",
				workspaceId,
			}));
		localStorage.setItem(memoKey(file), upload.id);
		const resumed = upload.parts.length > 0;
		const read = async (offset: number, length: number) => file.slice(offset, offset + length);
		await sendUploadParts(
			client,
			upload,
			{ size: file.size, read },
			{
				onProgress: (p) => onProgress({ sentBytes: p.uploadedBytes, totalBytes: p.totalBytes, resumed }),
			},
		);
		return upload.id;
	} catch (error) {
		throw asDashboardError(error);
	}
}

/** Forgets the file's upload once a video was made of it. */
export function forgetUpload(file: File): void {
	localStorage.removeItem(memoKey(file));
}

/** The upload an earlier visit started for this very file, if the API still has it for us. */
async function resumable(client: ReturnType<typeof sdk>, file: File): Promise<Upload | null> {
	const id = localStorage.getItem(memoKey(file));
	if (!id) return null;
	try {
		const upload = await client.upload(id);
		if (upload.size === file.size && upload.status !== "used") return upload;
	} catch {
		// expired or deleted: start afresh
	}
	localStorage.removeItem(memoKey(file));
	return null;
}

/** The SDK's error as the dashboard shows every refusal (errorText); a lost session goes to sign-in. */
function asDashboardError(error: unknown): unknown {
	if (!(error instanceof ClipforgeError)) return error;
	if (error.status === 401) location.hash = "#/login";
	const message = error.status === 0 ? "The upload was interrupted (network)." : error.message;
	return new DashboardApiError(error.status, { error: { message, code: error.code, details: error.details } });
}
