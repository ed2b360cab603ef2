/**
 * Captions that come with a submission (`captions: { url } | { text }`): fetched and read at once,
 * before anything is charged, so a file that is not captions is a 400 naming what is wrong, and the
 * workflow later only turns the stored cues into its transcript (no transcription).
 */
import { ApiError } from "../errors";
import { CaptionsError, guessLanguage, parseCaptions, type Cue } from "@clipforge/moments/text";
import { parseSourceUrl } from "./source-url";

export type SuppliedCaptions = { url: string } | { text: string };

/** A captions file larger than this is refused (a 3-hour talk's SRT is about 300 KB). */
export const MAX_CAPTIONS_BYTES = 5 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 15_000;

export interface ReadCaptions {
	cues: Cue[];
	/** What the file says (a WebVTT `Language:` header), else what its text looks like; null when unsure. */
	language: string | null;
}

export async function readSuppliedCaptions(
	env: Pick<Env, "ALLOW_PRIVATE_SOURCES">,
	captions: SuppliedCaptions,
	fetcher: typeof fetch = fetch,
): Promise<ReadCaptions> {
	const raw = "text" in captions ? captions.text : await fetchCaptions(env, captions.url, fetcher);
	let cues: Cue[];
	try {
		cues = parseCaptions(raw);
	} catch (error) {
		if (!(error instanceof CaptionsError)) throw error;
		throw new ApiError(
			"invalid_request",
			"The captions are not SRT or WebVTT that can be read. Nothing was charged.",
			[{ path: "captions", message: error.message }],
		);
	}
	const header = /^Language:\s*([A-Za-z]{2,3})\b/m.exec(raw.slice(0, 500));
	return { cues, language: header?.[1]?.toLowerCase() ?? guessLanguage(cues.map((c) => c.text).join(" ")) };
}

async function fetchCaptions(
	env: Pick<Env, "ALLOW_PRIVATE_SOURCES">,
	raw: string,
	fetcher: typeof fetch,
): Promise<string> {
	const url = parseSourceUrl(raw, env, "captions.url");
	let response: Response;
	try {
		response = await fetcher(url.toString(), { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
	} catch {
		throw unreadable(url, "it could not be fetched");
	}
	if (!response.ok) {
		await response.body?.cancel();
		throw unreadable(url, `it answered ${response.status}`);
	}
	const bytes = await readAtMost(response, MAX_CAPTIONS_BYTES);
	if (bytes === null) throw unreadable(url, `it is larger than ${MAX_CAPTIONS_BYTES / 1024 / 1024} MB`);
	return new TextDecoder().decode(bytes);
}

const unreadable = (url: URL, why: string) =>
	new ApiError("invalid_request", `The captions at ${url.host} could not be read: ${why}. Nothing was charged.`, [
		{ path: "captions.url", message: why },
	]);

/** The body, or null once it passes `limit` bytes (reading stops there). */
async function readAtMost(response: Response, limit: number): Promise<Uint8Array | null> {
	const reader = response.body?.getReader();
	if (!reader) return new Uint8Array();
	const parts: Uint8Array[] = [];
	let size = 0;
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		size += value.byteLength;
		if (size > limit) {
			await reader.cancel();
			return null;
		}
		parts.push(value);
	}
	const out = new Uint8Array(size);
	let at = 0;
	for (const part of parts) {
		out.set(part, at);
		at += part.byteLength;
	}
	return out;
}
