/**
 * Long transcripts for speed and size checks: the dev talk corpus's episodes back to back until
 * `minutes` are filled, punctuated (Whisper) or plain (the local engine: lower case, no
 * punctuation, so sentences come only from pauses and segment ends).
 */
import type { Transcript } from "@clipforge/moments/text";
import { buildTalkCorpus } from "./talk-corpus.ts";
import type { TranscriptStyle } from "./turns-to-transcript.ts";

export function longTalk(minutes: number, style: TranscriptStyle = "punctuated"): Transcript {
	const episodes = buildTalkCorpus("dev", style);
	const seconds = minutes * 60;
	const segments: Transcript["segments"] = [];
	let offset = 0;
	for (let k = 0; offset < seconds; k++) {
		const t = episodes[k % episodes.length]!.transcript;
		for (const s of t.segments) {
			if (offset + s.end > seconds) break;
			segments.push({
				...s,
				start: s.start + offset,
				end: s.end + offset,
				words: s.words.map((w) => ({ ...w, start: w.start + offset, end: w.end + offset })),
			});
		}
		offset += t.duration;
	}
	const words = segments.flatMap((s) => s.words);
	return { language: "en", duration: seconds, text: words.map((w) => w.word).join(" "), segments, words };
}
