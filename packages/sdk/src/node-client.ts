/**
 * The SDK's client on Node: the API's calls (api-client.ts, web-standard) plus downloading clips to files
 * with Node's streams.
 *
 * @example
 * const cf = createClient({ baseUrl: process.env.CLIPFORGE_URL!, apiKey: process.env.CLIPFORGE_API_KEY! });
 * const { video } = await cf.submit("https://example.com/talk.mp4", { enableCaptions: true });
 * await cf.waitForCompletion(video.id, { onProgress: (s) => console.log(s.job.progress) });
 * for (const clip of (await cf.listClips(video.id)).clips) await cf.downloadClip(clip, `./${clip.id}.mp4`);
 */
import { createWriteStream } from "node:fs";
import { open, rename, rm, stat } from "node:fs/promises";
import { basename, extname } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import {
	createApiClient,
	type ApiClient,
	type ClientOptions,
	type Clip,
	type ClipFilters,
	type ExportFormat,
	type SubmitOptions,
	type SubmitResponse,
	type Upload,
	type VideoConfig,
} from "./api-client.ts";
import { ClipforgeError } from "./errors.ts";
import { sendUploadParts, type UploadProgress } from "./upload-parts.ts";

export * from "./api-client.ts";

export type { UploadProgress } from "./upload-parts.ts";

export interface UploadFileOptions {
	/** Resume this upload (an id an earlier, interrupted `uploadFile` reported) instead of starting one: only its missing parts are sent. */
	uploadId?: string;
	/** Defaults from the file's extension (`video/mp4` for .mp4, …), else application/octet-stream. */
	contentType?: string;
	/** Bytes per part (5-50 MiB); the API's default (16 MiB) otherwise. */
	partSize?: number;
	/** Parts in flight at once. Default 3. */
	concurrency?: number;
	workspaceId?: string;
	/** Called once the upload exists (with its id: keep it to resume after a crash), then after every stored part. */
	onProgress?: (progress: UploadProgress) => void;
	signal?: AbortSignal;
}

export function createClient(options: ClientOptions) {
	const doFetch = options.fetch ?? fetch;
	const api = createApiClient(options);
	return {
		...api,
		/**
		 * Uploads a local video file in parts (POST /api/uploads, the parts, …/complete) and answers
		 * the completed upload, to submit with `submitUpload`. Interrupted, it can be resumed with the
		 * id `onProgress` reported (`uploadId`): only the parts the API does not have are sent.
		 */
		uploadFile(path: string, opts: UploadFileOptions = {}): Promise<Upload> {
			return uploadFile(api, path, opts);
		},
		/** `uploadFile`, then `submitUpload` with the config: a local file's `submit`. */
		async submitFile(
			path: string,
			config?: VideoConfig,
			opts: SubmitOptions & UploadFileOptions = {},
		): Promise<SubmitResponse> {
			const { uploadId, contentType, partSize, concurrency, onProgress, ...submit } = opts;
			const upload = await uploadFile(api, path, {
				uploadId,
				contentType,
				partSize,
				concurrency,
				onProgress,
				signal: submit.signal,
				workspaceId: submit.workspaceId,
			});
			return api.submitUpload(upload.id, config, submit);
		},
		/** Writes an export (timeline or ZIP) to `path` through a .part file. Returns the bytes written. */
		async exportToFile(
			videoId: string,
			format: ExportFormat,
			path: string,
			query: ClipFilters & { mediaUrl?: string } = {},
			signal?: AbortSignal,
		): Promise<number> {
			return writeStream(await api.exportClips(videoId, format, query, signal), path, signal);
		},
		/** Streams a clip's MP4 (its signed downloadUrl, not an API path) to `path`; written to a .part file and renamed, so a failure leaves nothing half-written. Returns the bytes written. */
		downloadClip(clip: Pick<Clip, "id" | "downloadUrl">, path: string, signal?: AbortSignal): Promise<number> {
			return downloadTo(doFetch, clip, path, signal);
		},
	};
}

export type ClipforgeClient = ReturnType<typeof createClient>;

/** Streams a clip's MP4 (its signed downloadUrl, not an API path) to `path` through a .part file, so a failure leaves nothing half-written. */
async function downloadTo(
	doFetch: typeof fetch,
	clip: Pick<Clip, "id" | "downloadUrl">,
	path: string,
	signal?: AbortSignal,
): Promise<number> {
	if (!clip.downloadUrl) throw new ClipforgeError("not_found", `Clip ${clip.id} has no file yet.`, { status: 404 });
	const response = await doFetch(clip.downloadUrl, { signal });
	if (!response.ok || !response.body) throw await ClipforgeError.fromResponse(response);
	return writeStream(response.body, path, signal);
}

/** A web stream to `path` through a .part file, renamed once complete. */
async function writeStream(body: ReadableStream<Uint8Array>, path: string, signal?: AbortSignal): Promise<number> {
	const partial = `${path}.part`;
	let bytes = 0;
	try {
		const counted = Readable.fromWeb(body as WebReadableStream<Uint8Array>).on("data", (chunk: Buffer) => {
			bytes += chunk.length;
		});
		await pipeline(counted, createWriteStream(partial), { signal });
		await rename(partial, path);
	} catch (error) {
		await rm(partial, { force: true });
		throw error;
	}
	return bytes;
}

const CONTENT_TYPES: Record<string, string> = {
	".mp4": "video/mp4",
	".m4v": "video/mp4",
	".mov": "video/quicktime",
	".mkv": "video/x-matroska",
	".webm": "video/webm",
	".avi": "video/x-msvideo",
	".mpg": "video/mpeg",
	".mpeg": "video/mpeg",
	".ts": "video/mp2t",
	".flv": "video/x-flv",
	".3gp": "video/3gpp",
	".wmv": "video/x-ms-wmv",
};

async function uploadFile(api: ApiClient, path: string, opts: UploadFileOptions): Promise<Upload> {
	const { size } = await stat(path);
	const upload = await startOrResume(api, path, size, opts);
	if (upload.status !== "uploading") return upload;
	const file = await open(path, "r");
	try {
		const read = async (offset: number, length: number) => {
			const bytes = new Uint8Array(length);
			const { bytesRead } = await file.read(bytes, 0, length, offset);
			if (bytesRead !== length)
				throw new ClipforgeError("conflict", `${path} changed while it was uploaded.`, { status: 0 });
			return bytes;
		};
		return await sendUploadParts(api, upload, { size, read }, opts);
	} finally {
		await file.close();
	}
}

/** The upload to resume (`uploadId`, which must be for a file of this size) or a new one. */
async function startOrResume(api: ApiClient, path: string, size: number, opts: UploadFileOptions): Promise<Upload> {
	const contentType = opts.contentType ?? CONTENT_TYPES[extname(path).toLowerCase()] ?? "application/octet-stream";
	const upload = opts.uploadId
		? await api.upload(opts.uploadId, opts.signal)
		: await api.createUpload(
				{
					fileName: basename(path),
					size,
					contentType,
					...(opts.partSize ? { partSize: opts.partSize } : {}),
					...(opts.workspaceId ? { workspaceId: opts.workspaceId } : {}),
				},
				opts.signal,
			);
	if (upload.size !== size) {
		throw new ClipforgeError(
			"conflict",
			`Upload ${upload.id} is for a file of ${upload.size} bytes; ${path} has ${size}. Start a new upload.`,
			{ status: 409 },
		);
	}
	return upload;
}
