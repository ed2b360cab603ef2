/**
 * A video's stored chapters (`chapters/{videoId}.json`, written by the workflow's "find chapters"
 * step), with the show notes made from them. A video completed before chapters existed has none
 * stored: its chapters are made offline from its transcript on first read and stored, so every
 * completed video has them.
 */
import { showNotesOf, type Chapter, type VideoChapters } from "@clipforge/domain";
import { r2Keys } from "../r2-keys";
import type { Transcript } from "@clipforge/moments/text";

export interface ChaptersView {
	chapters: Chapter[];
	summary: string;
	/** Ready-to-paste show notes: the summary, then one `MM:SS Title` line per chapter (H:MM:SS past an hour). */
	description: string;
	madeBy: VideoChapters["madeBy"];
	note: string | null;
}

/** Null when the video has neither chapters nor a transcript to make them from. */
export async function readChapters(
	media: R2Bucket,
	video: { id: string; transcriptKey: string | null },
): Promise<ChaptersView | null> {
	const stored = await media.get(r2Keys.chapters(video.id));
	let value: VideoChapters;
	if (stored) value = (await stored.json()) as VideoChapters;
	else {
		const transcript = video.transcriptKey ? await media.get(video.transcriptKey) : null;
		if (!transcript) return null;
		const { chaptersOffline } = await import("@clipforge/moments/chapters/offline/chapters-offline");
		value = chaptersOffline((await transcript.json()) as Transcript);
		await media.put(r2Keys.chapters(video.id), JSON.stringify(value), {
			httpMetadata: { contentType: "application/json" },
		});
	}
	return { ...value, description: value.chapters.length ? showNotesOf(value) : value.summary };
}
