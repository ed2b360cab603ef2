import { createReadStream } from "node:fs";
import { egressFetch } from "./egress-fetch.ts";
import { TierError } from "./tier-error.ts";
import { fileSize } from "./workdir.ts";
import type { OnProgress } from "@clipforge/contract";

/**
 * Streams a local file to a signed PUT URL served by the Worker (which writes it to R2), so the
 * tier never holds storage credentials. Reports the bytes sent as progress. Like every fetch of the
 * tier, it goes through the egress agent (egress-fetch.ts): the Worker's address is checked too.
 */
export async function putFile(
	path: string,
	putUrl: string,
	contentType: string,
	onProgress?: OnProgress,
	signal?: AbortSignal,
): Promise<number> {
	const size = await fileSize(path);
	if (!size) throw new TierError("source_missing", `Nothing to upload at ${path}.`, true);
	let sent = 0;
	const stream = createReadStream(path);
	stream.on("data", (chunk) => {
		sent += chunk.length;
		onProgress?.(sent / size);
	});
	const response = await egressFetch(putUrl, {
		method: "PUT",
		body: stream as AsyncIterable<Uint8Array>,
		headers: { "content-type": contentType, "content-length": String(size) },
		duplex: "half",
		signal,
	});
	if (!response.ok) {
		const detail = (await response.text()).slice(0, 300);
		// 4xx from the Worker means the signed URL is bad or expired: retrying the same URL will not help.
		throw new TierError("upload_failed", `Upload answered ${response.status}: ${detail}`, response.status >= 500);
	}
	return size;
}

/** Downloads a signed GET URL to a local file (used for audio chunks, which are small). */
export async function fetchToFile(url: string, path: string, signal?: AbortSignal): Promise<number> {
	const { writeFile } = await import("node:fs/promises");
	const response = await egressFetch(url, { signal });
	if (!response.ok) {
		throw new TierError("source_missing", `Fetching ${new URL(url).pathname} answered ${response.status}.`, response.status >= 500);
	}
	const bytes = new Uint8Array(await response.arrayBuffer());
	await writeFile(path, bytes);
	return bytes.length;
}
