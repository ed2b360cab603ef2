/** A clip's captions as SRT or WebVTT: its (corrected) words, times from the clip's start, in the transcript's cues. */
import type { Word } from "@clipforge/contract";
import type { CaptionFormat } from "@clipforge/domain";
import type { Transcript } from "@clipforge/moments/text";
import { toSrt, toVtt } from "../transcription/transcript-formats";

export const CAPTION_CONTENT_TYPE: Record<CaptionFormat, string> = {
	srt: "application/x-subrip; charset=utf-8",
	vtt: "text/vtt; charset=utf-8",
};

/** The words as one segment: cues break at sentence ends and pauses as the transcript's do. */
export function captionsOf(words: readonly Word[], format: CaptionFormat): string {
	const asTranscript = {
		segments:
			words.length > 0
				? [{ start: words[0]!.start, end: words[words.length - 1]!.end, text: "", words: [...words] }]
				: [],
	} as unknown as Transcript;
	return format === "srt" ? toSrt(asTranscript) : toVtt(asTranscript);
}
