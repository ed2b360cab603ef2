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
import { rename, rm } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { createApiClient, type ClientOptions, type Clip } from "./api-client.ts";
import { ClipforgeError } from "./errors.ts";

export * from "./api-client.ts";

export function createClient(options: ClientOptions) {
	const doFetch = options.fetch ?? fetch;
	return {
		...createApiClient(options),
		/** Streams a clip's MP4 (its signed downloadUrl, not an API path) to `path`; written to a .part file and renamed, so a failure leaves nothing half-written. Returns the bytes written. */
		downloadClip(clip: Pick<Clip, "id" | "downloadUrl">, path: string, signal?: AbortSignal): Promise<number> {
			return downloadTo(doFetch, clip, path, signal);
		},
	};
}

export type ClipforgeClient = ReturnType<typeof createClient>;

/** Streams a clip's MP4 (its signed downloadUrl, not an API path) to `path` through a .part file, so a failure leaves nothing half-written. */
async function downloadTo(doFetch: typeof fetch, clip: Pick<Clip, "id" | "downloadUrl">, path: string, signal?: AbortSignal): Promise<number> {
	if (!clip.downloadUrl) throw new ClipforgeError("not_found", `Clip ${clip.id} has no file yet.`, { status: 404 });
	const response = await doFetch(clip.downloadUrl, { signal });
	if (!response.ok || !response.body) throw await ClipforgeError.fromResponse(response);
	const partial = `${path}.part`;
	let bytes = 0;
	try {
		const counted = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>).on("data", (chunk: Buffer) => {
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

