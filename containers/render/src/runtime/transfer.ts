import { createReadStream } from "node:fs";
import { rename } from "node:fs/promises";
import {
	CompleteMultipart,
	MULTIPART_START,
	MultipartStarted,
	OBJECT_UPLOAD_LIMITS,
	objectParts,
	UploadedPart,
	type OnProgress,
} from "@clipforge/contract";
import { egressFetch } from "../egress/fetch.ts";
import { holdPath } from "./job-context.ts";
import { TierError } from "./tier-error.ts";
import { fileSize } from "./workdir.ts";

/** Tries of one part (network drops, 5xx) before the whole upload fails and is aborted. */
const PART_TRIES = 3;

/**
 * Streams a local file to a signed PUT URL served by the Worker (which writes it to R2), so the
 * tier never holds storage credentials. A file up to one part goes in one PUT; a larger one (a
 * source, a long clip) as a multipart upload through the same URL, one part at a time, because no
 * request body may be larger than the zone's limit (@clipforge/contract object-upload.ts). Reports
 * the bytes sent as progress. Like every fetch of the tier, it goes through the egress agent
 * (egress-fetch.ts): the Worker's address is checked too.
 */
export async function putFile(
	path: string,
	putUrl: string,
	contentType: string,
	onProgress?: OnProgress,
	signal?: AbortSignal,
	partBytes: number = OBJECT_UPLOAD_LIMITS.partBytes,
): Promise<number> {
	const size = await fileSize(path);
	if (!size) throw new TierError("source_missing", `Nothing to upload at ${path}.`, true);
	const reader = countedReader(path, size, onProgress);
	if (size <= partBytes) {
		const headers = { "content-type": contentType, "content-length": String(size) };
		await send(putUrl, { method: "PUT", body: reader.range(0, size), headers }, signal);
		return size;
	}
	const started = await send(
		withQuery(putUrl, { [MULTIPART_START]: "" }),
		{ method: "POST", headers: { "content-type": contentType } },
		signal,
	);
	const { uploadId } = MultipartStarted.parse(await started.json());
	const uploadUrl = (extra: Record<string, string> = {}) => withQuery(putUrl, { uploadId, ...extra });
	try {
		const plan = objectParts(size, partBytes);
		const parts: UploadedPart[] = [];
		for (let n = 1; n <= plan.count; n++) {
			const start = (n - 1) * partBytes;
			const end = Math.min(size, start + partBytes);
			parts.push(await putPart(uploadUrl({ partNumber: String(n) }), reader, start, end, signal));
		}
		const body = JSON.stringify(CompleteMultipart.parse({ parts }));
		await send(uploadUrl(), { method: "POST", body, headers: { "content-type": "application/json" } }, signal);
		return size;
	} catch (error) {
		// Best effort: the parts already stored are dropped now rather than by R2's own expiry.
		await egressFetch(uploadUrl(), { method: "DELETE" }).catch(() => undefined);
		throw error;
	}
}

/** Byte ranges of the file as streams that report the bytes sent so far as progress. */
interface CountedReader {
	range(start: number, end: number): AsyncIterable<Uint8Array>;
	sent: number;
}

function countedReader(path: string, size: number, onProgress?: OnProgress): CountedReader {
	const reader: CountedReader = {
		sent: 0,
		range(start, end) {
			const stream = createReadStream(path, { start, end: end - 1 });
			stream.on("data", (chunk) => {
				reader.sent += chunk.length;
				onProgress?.(reader.sent / size);
			});
			return stream as AsyncIterable<Uint8Array>;
		},
	};
	return reader;
}

/** One part of a multipart upload, tried PART_TRIES times; a failed try's bytes are taken back from the progress. */
async function putPart(
	url: string,
	reader: CountedReader,
	start: number,
	end: number,
	signal?: AbortSignal,
): Promise<UploadedPart> {
	const before = reader.sent;
	for (let attempt = 1; ; attempt++) {
		try {
			const headers = { "content-length": String(end - start) };
			const response = await send(url, { method: "PUT", body: reader.range(start, end), headers }, signal);
			return UploadedPart.parse(await response.json());
		} catch (error) {
			reader.sent = before;
			if (attempt >= PART_TRIES || signal?.aborted || (error instanceof TierError && !error.retryable))
				throw error;
		}
	}
}

/** `url` with `params` added to its query (the signature covers the path and method, not these). */
function withQuery(url: string, params: Record<string, string>): string {
	const next = new URL(url);
	for (const [name, value] of Object.entries(params)) next.searchParams.set(name, value);
	return next.toString();
}

async function send(
	url: string,
	init: { method: string; body?: AsyncIterable<Uint8Array> | string; headers: Record<string, string> },
	signal?: AbortSignal,
): Promise<Response> {
	const response = await egressFetch(url, {
		...init,
		...(init.body && typeof init.body !== "string" ? { duplex: "half" } : {}),
		signal,
	});
	if (!response.ok) {
		const detail = (await response.text()).slice(0, 300);
		// 4xx from the Worker means the signed URL is bad or expired: retrying the same URL will not help.
		throw new TierError("upload_failed", `Upload answered ${response.status}: ${detail}`, response.status >= 500);
	}
	return response as unknown as Response;
}

/** Downloads a signed GET URL to a local file (used for audio chunks, which are small). */
export async function fetchToFile(url: string, path: string, signal?: AbortSignal): Promise<number> {
	const { writeFile } = await import("node:fs/promises");
	const response = await egressFetch(url, { signal });
	if (!response.ok) {
		throw new TierError(
			"source_missing",
			`Fetching ${new URL(url).pathname} answered ${response.status}.`,
			response.status >= 500,
		);
	}
	const bytes = new Uint8Array(await response.arrayBuffer());
	await writeFile(path, bytes);
	return bytes.length;
}

/**
 * A file fetched once per instance and kept (a split-screen background, reused by every clip):
 * fetched under a partial name the running job holds (no sweep takes it midway), then renamed into
 * place; a later call finds it there and fetches nothing.
 */
export async function fetchOnce(url: string, path: string, signal?: AbortSignal): Promise<void> {
	if ((await fileSize(path)) !== null) return;
	const partial = holdPath(`${path}.${process.pid}.${Date.now()}.part`);
	await fetchToFile(url, partial, signal);
	await rename(partial, path);
}
