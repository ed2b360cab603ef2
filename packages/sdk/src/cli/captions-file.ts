/** `--captions-from`: a URL is sent for the service to fetch; a file is read and sent as text (a body is at most 64 KiB). */
import { readFile } from "node:fs/promises";
import { ClipforgeError } from "../errors.ts";

/** What fits in a submission body beside the rest; a longer file must be hosted and given by URL. */
const MAX_INLINE_CHARACTERS = 60_000;

export async function captionsFrom(value: string): Promise<{ url: string } | { text: string }> {
	if (/^https?:\/\//i.test(value)) return { url: value };
	let text: string;
	try {
		text = await readFile(value, "utf8");
	} catch (error) {
		throw new ClipforgeError(
			"invalid_request",
			`--captions-from: cannot read ${value} (${(error as Error).message}).`,
			{
				status: 0,
			},
		);
	}
	if (text.length > MAX_INLINE_CHARACTERS)
		throw new ClipforgeError(
			"invalid_request",
			`--captions-from: ${value} is longer than ${MAX_INLINE_CHARACTERS} characters; put it where the service can fetch it and pass its URL.`,
			{ status: 0 },
		);
	return { text };
}
