/**
 * The stored transcript as subtitles or text. Cues follow sentences, split further so none is
 * longer than a reader can take in (≤ 7 s, ≤ 14 words), their words joined as their script writes
 * them (no space between Japanese or Chinese words).
 */
import { joinWords, sentencesOf, type Transcript } from "@clipforge/moments/text";

export const TRANSCRIPT_FORMATS = ["json", "srt", "vtt", "txt"] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

const MAX_CUE_SECONDS = 7;
const MAX_CUE_WORDS = 14;

export interface Cue {
	start: number;
	end: number;
	text: string;
}

export function cuesOf(transcript: Transcript): Cue[] {
	const cues: Cue[] = [];
	for (const sentence of sentencesOf(transcript)) {
		let words: typeof sentence.words = [];
		const flush = () => {
			if (words.length === 0) return;
			cues.push({
				start: words[0]!.start,
				end: words[words.length - 1]!.end,
				text: joinWords(words.map((w) => oneLine(w.word))),
			});
			words = [];
		};
		for (const word of sentence.words) {
			if (words.length >= MAX_CUE_WORDS || (words.length > 0 && word.end - words[0]!.start > MAX_CUE_SECONDS))
				flush();
			words.push(word);
		}
		flush();
	}
	return cues;
}

/**
 * A word as cue text: on one line (line breaks, other control characters and runs of spaces become
 * one space), so a word a member corrected cannot end a cue and forge others in a file that
 * others download.
 */
export function oneLine(text: string): string {
	return text.replace(/[\p{Cc}\p{Zl}\p{Zp}\s]+/gu, " ").trim();
}

/** No cue text may hold a cue's timing arrow. */
const noArrow = (text: string) => text.replace(/-->/g, "→");

/** WebVTT cue text is markup: `&` and `<` start entities and tags. */
const vttText = (text: string) => noArrow(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export function toSrt(transcript: Transcript): string {
	return cuesOf(transcript)
		.map(
			(cue, i) => `${i + 1}\n${timestamp(cue.start, ",")} --> ${timestamp(cue.end, ",")}\n${noArrow(cue.text)}\n`,
		)
		.join("\n");
}

export function toVtt(transcript: Transcript): string {
	const body = cuesOf(transcript)
		.map((cue) => `${timestamp(cue.start, ".")} --> ${timestamp(cue.end, ".")}\n${vttText(cue.text)}\n`)
		.join("\n");
	return `WEBVTT\n\n${body}`;
}

export function toText(transcript: Transcript): string {
	return `${sentencesOf(transcript)
		.map((s) => s.text)
		.join("\n")}\n`;
}

/** `HH:MM:SS,mmm` (SRT) or `HH:MM:SS.mmm` (VTT). */
export function timestamp(seconds: number, separator: "," | "."): string {
	const ms = Math.max(0, Math.round(seconds * 1000));
	const h = Math.floor(ms / 3_600_000);
	const m = Math.floor((ms % 3_600_000) / 60_000);
	const s = Math.floor((ms % 60_000) / 1000);
	const pad = (n: number, width = 2) => String(n).padStart(width, "0");
	return `${pad(h)}:${pad(m)}:${pad(s)}${separator}${pad(ms % 1000, 3)}`;
}
