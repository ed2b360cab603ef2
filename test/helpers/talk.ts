/**
 * Transcripts of conversation for ranking tests: turns (speaker, text) become segments with word
 * timings the way the pipeline stores them (about 2.6 words a second, short pauses between
 * sentences, longer ones between turns), punctuated like Whisper or plain like the local engine.
 */
import type { Transcript } from "@clipforge/moments/text";

export type Turn = [speaker: string, text: string];

export function transcriptOf(turns: Turn[], options: { plain?: boolean; startAt?: number } = {}): Transcript {
	let t = options.startAt ?? 0.5;
	const segments: Transcript["segments"] = [];
	for (const [, text] of turns) {
		const words = text
			.split(/\s+/)
			.filter(Boolean)
			.map((raw) => {
				const word = options.plain ? raw.toLowerCase().replace(/[^\p{L}\p{N}'-]/gu, "") : raw;
				const length = 0.22 + 0.045 * raw.length;
				const w = { word, start: round3(t), end: round3(t + length * 0.9) };
				t += length + (/[.!?]$/.test(raw) ? 0.35 : 0.04);
				return w;
			});
		segments.push({
			start: words[0]!.start,
			end: words[words.length - 1]!.end,
			text: words.map((w) => w.word).join(" "),
			words,
		});
		t += 0.6;
	}
	const words = segments.flatMap((s) => s.words);
	return { language: "en", duration: round3(t + 1), text: words.map((w) => w.word).join(" "), segments, words };
}

/** Where a passage of `turns` (by index, inclusive) lies in the transcript built from them. */
export function spanOfTurns(transcript: Transcript, first: number, last: number): { start: number; end: number } {
	return { start: transcript.segments[first]!.start, end: transcript.segments[last]!.end };
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** `minutes` of talk: the turns said again and again (the local engine's plain style when `plain`). */
export function longTranscriptOf(turns: Turn[], minutes: number, options: { plain?: boolean } = {}): Transcript {
	const once = transcriptOf(turns, options);
	const repeats = Math.max(1, Math.ceil((minutes * 60) / once.duration));
	const all = transcriptOf(Array.from({ length: repeats }, () => turns).flat(), options);
	const segments = all.segments.filter((s) => s.end <= minutes * 60);
	const words = segments.flatMap((s) => s.words);
	return {
		language: "en",
		duration: Math.min(all.duration, minutes * 60),
		text: words.map((w) => w.word).join(" "),
		segments,
		words,
	};
}
