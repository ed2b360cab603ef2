/**
 * Turns written as people talk ({speaker, text}) become a transcript in the pipeline's own shape:
 * segments with word timings, as Whisper (punctuated) or the local engine (lower case, no
 * punctuation) would give them. Timings are seeded: a speaking rate per speaker, longer words take
 * longer, pauses after commas, sentence ends and between turns. No speaker labels reach the
 * transcript (the pipeline has none); the turn ranges are returned beside it for scoring.
 */
import type { Segment, Word } from "@clipforge/contract";
import type { Transcript } from "@clipforge/moments/text";
import { writtenSegments } from "../../src/worker/services/transcription/written-segments.ts";

export interface Turn {
	speaker: string;
	text: string;
}

/**
 * `punctuated`: as written (Whisper keeps punctuation and case). `whisper`: punctuated, without the
 * "um"/"uh" Whisper leaves out. `plain`: no punctuation, lower case but for the capitals the Worker
 * gives the local engine's words (writtenSegments: "I", known names, each segment's first letter).
 * `continuous`: plain, spoken without a pause (none over 0.25 s: a fast talker, a music bed under
 * the voice) and cut into segments every 20-30 s wherever the words fall, as Whisper's windows are.
 */
export type TranscriptStyle = "punctuated" | "whisper" | "plain" | "continuous";
const DROPPED_BY_WHISPER = /^(um+|uh+|er+|erm|hmm+|mm+)[,.]?$/i;

export interface TimedTurns {
	transcript: Transcript;
	/** Start and end (seconds) of each turn, same order as the input. */
	turnTimes: { start: number; end: number }[];
}

/** Mulberry32: a small seeded PRNG. */
export function prng(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

export function hashSeed(text: string): number {
	let h = 2166136261;
	for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
	return h >>> 0;
}

const SEGMENT_WORDS = 28;

export function turnsToTranscript(
	turns: Turn[],
	options: { seed: number; style?: TranscriptStyle; startAt?: number },
): TimedTurns {
	const random = prng(options.seed);
	const style = options.style ?? "punctuated";
	const rates = new Map<string, number>();
	const rateOf = (speaker: string) => {
		if (!rates.has(speaker)) rates.set(speaker, 2.3 + random() * 1.0);
		return rates.get(speaker)!;
	};
	let t = options.startAt ?? 0.4;
	const segments: Segment[] = [];
	const turnTimes: { start: number; end: number }[] = [];
	for (const turn of turns) {
		const raw = turn.text
			.split(/\s+/)
			.filter((w) => /[\p{L}\p{N}]/u.test(w) && !(style === "whisper" && DROPPED_BY_WHISPER.test(w)));
		if (raw.length === 0) {
			turnTimes.push({ start: t, end: t });
			continue;
		}
		const rate = rateOf(turn.speaker) * (0.9 + random() * 0.2);
		const turnStart = t;
		t = timeTurn(raw, { rate, style, random, start: t }, segments);
		turnTimes.push({ start: round3(turnStart), end: round3(t) });
		t += style === "continuous" ? 0.05 + random() * 0.15 : 0.15 + random() * 0.6;
	}
	// The local engine's lower case reaches the pipeline as the Worker writes it ("I", "Chicago").
	const timed = style === "continuous" ? inWindows(segments, random) : segments;
	const written = style === "plain" || style === "continuous" ? writtenSegments(timed) : timed;
	const transcript: Transcript = {
		language: "en",
		duration: round3(t + 1),
		text: written.map((s) => s.text).join(" "),
		segments: written,
		words: written.flatMap((s) => s.words),
	};
	return { transcript, turnTimes };
}

/**
 * Times one turn's words from `start` at `rate` (longer words take longer, pauses after commas and
 * sentence ends), cutting them into segments of about SEGMENT_WORDS; returns when the turn ends.
 */
function timeTurn(
	raw: string[],
	speech: { rate: number; style: TranscriptStyle; random: () => number; start: number },
	segments: Segment[],
): number {
	const { rate, style, random } = speech;
	let t = speech.start;
	let current: Word[] = [];
	const flush = () => {
		if (current.length === 0) return;
		segments.push({
			start: current[0]!.start,
			end: current[current.length - 1]!.end,
			text: current.map((w) => w.word).join(" "),
			words: current,
		});
		current = [];
	};
	for (const token of raw) {
		const letters = token.replace(/[^\p{L}\p{N}]/gu, "").length;
		const length = ((0.55 + 0.09 * letters) / rate) * (0.85 + random() * 0.3);
		const bare = style === "plain" || style === "continuous";
		const word = bare ? token.toLowerCase().replace(/[^\p{L}\p{N}'-]/gu, "") : token;
		if (word) current.push({ word, start: round3(t), end: round3(t + length * 0.92) });
		t += length;
		const sentenceEnd = /[.!?]["')]*$/.test(token);
		if (style === "continuous") continue;
		if (sentenceEnd) t += 0.2 + random() * 0.3;
		else if (/[,;:—-]$/.test(token)) t += 0.08 + random() * 0.12;
		if (sentenceEnd && current.length >= SEGMENT_WORDS * 0.6) flush();
		else if (current.length >= SEGMENT_WORDS * 1.5) flush();
	}
	flush();
	return t;
}

/** The words again, cut into segments every 20-30 s wherever they fall (Whisper's windows), turns or not. */
function inWindows(segments: Segment[], random: () => number): Segment[] {
	const windows: Segment[] = [];
	let current: Word[] = [];
	let length = 20 + random() * 10;
	for (const word of segments.flatMap((s) => s.words)) {
		if (current.length > 0 && word.end - current[0]!.start > length) {
			windows.push(segmentOf(current));
			current = [];
			length = 20 + random() * 10;
		}
		current.push(word);
	}
	if (current.length > 0) windows.push(segmentOf(current));
	return windows;
}

const segmentOf = (words: Word[]): Segment => ({
	start: words[0]!.start,
	end: words[words.length - 1]!.end,
	text: words.map((w) => w.word).join(" "),
	words,
});

const round3 = (n: number) => Math.round(n * 1000) / 1000;
