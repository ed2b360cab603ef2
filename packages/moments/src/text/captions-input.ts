/**
 * Captions a user supplies (SRT or WebVTT, by URL or inline) or a source's own subtitles, read into
 * the pipeline's transcript: cues, then words with times. A cue says when its text was said, not
 * when each word was: the cue's time is spread over its words by how long each is in its own
 * script (letters and marks, so a Devanagari word of four aksharas takes about as long as an
 * English one of four letters, and a Chinese word of two characters twice one of one), and scripts
 * written without spaces (Chinese, Japanese, Thai, Lao, Khmer, Burmese) are cut into words by
 * `Intl.Segmenter`. Where the captions carry their own word times (YouTube's automatic WebVTT,
 * `<00:00:01.319>` before each word), those are used.
 */
import type { Segment, Word } from "@clipforge/contract";
import { hasUnspaced, joinWords } from "./script.ts";
import type { Transcript } from "./transcript.ts";

export { joinWords };

export interface Cue {
	start: number;
	end: number;
	text: string;
	/** Word start times the captions gave inside the cue (seconds), by word index. */
	wordStarts?: (number | null)[];
}

/** A caption file that cannot be read, with the line where reading stopped. */
export class CaptionsError extends Error {
	readonly line: number | null;
	constructor(message: string, line: number | null = null) {
		super(line === null ? message : `line ${line}: ${message}`);
		this.name = "CaptionsError";
		this.line = line;
	}
}

/** At most this many cues (a 3-hour video has about 3,000). */
export const MAX_CUES = 20_000;

const TIMING = /^\s*((?:\d+:)?\d{1,2}:\d{2}[.,]\d{1,3})\s*-->\s*((?:\d+:)?\d{1,2}:\d{2}[.,]\d{1,3})/;
const INLINE_TIME = /<((?:\d+:)?\d{1,2}:\d{2}\.\d{1,3})>/g;

/** SRT or WebVTT (told apart by the `WEBVTT` header) into cues in time order. */
export function parseCaptions(raw: string): Cue[] {
	const lines = raw
		.replace(/^\uFEFF/, "")
		.replace(/\r\n?/g, "\n")
		.split("\n");
	const vtt = /^WEBVTT\b/.test(lines[0] ?? "");
	const cues: RawCue[] = [];
	let k = vtt ? skipBlock(lines, 0) : 0;
	while (k < lines.length) {
		if (lines[k]!.trim() === "") {
			k++;
			continue;
		}
		if (vtt && /^(NOTE|STYLE|REGION)\b/.test(lines[k]!)) {
			k = skipBlock(lines, k);
			continue;
		}
		// An identifier (SRT's cue number, VTT's optional id) before the timing line.
		const timingAt = TIMING.test(lines[k]!) ? k : k + 1;
		const timing = TIMING.exec(lines[timingAt] ?? "");
		if (!timing) throw new CaptionsError("expected a cue timing such as 00:00:01,000 --> 00:00:03,500", k + 1);
		const start = secondsOf(timing[1]!);
		const end = secondsOf(timing[2]!);
		if (!(end > start)) throw new CaptionsError("the cue ends before it starts", timingAt + 1);
		const text: string[] = [];
		for (k = timingAt + 1; k < lines.length && lines[k]!.trim() !== ""; k++) text.push(lines[k]!);
		cues.push({ start, end, lines: text });
		if (cues.length > MAX_CUES) throw new CaptionsError(`more than ${MAX_CUES} cues`);
	}
	const spoken = withoutRepeatedLines(cues.sort((a, b) => a.start - b.start))
		.map((c) => cueOf(c.start, c.end, c.lines.join("\n")))
		.filter((c) => c.text !== "");
	if (spoken.length === 0) throw new CaptionsError("no cue with words in it");
	return spoken;
}

function skipBlock(lines: string[], from: number): number {
	let k = from;
	while (k < lines.length && lines[k]!.trim() !== "") k++;
	return k;
}

/** "01:02:03,500" / "02:03.5" → seconds. */
function secondsOf(stamp: string): number {
	const [clock, fraction = "0"] = stamp.split(/[.,]/);
	const parts = clock!.split(":").map(Number);
	const whole = parts.reduce((total, part) => total * 60 + part, 0);
	return whole + Number(`0.${fraction}`);
}

/**
 * A cue's text as words are said: tags and markup gone (voices, italics, classes), sound
 * descriptions ("[Music]", "(applause)") dropped, entities decoded, inline word times kept.
 */
function cueOf(start: number, end: number, raw: string): Cue {
	const wordStarts: (number | null)[] = [];
	let pending: number | null = null;
	const words: string[] = [];
	// Split at inline times first: each time belongs to the word that follows it.
	for (const piece of raw.split(INLINE_TIME)) {
		if (/^(?:\d+:)?\d{1,2}:\d{2}\.\d{1,3}$/.test(piece)) {
			pending = secondsOf(piece);
			continue;
		}
		const text = decodeEntities(piece.replace(/<[^>]*>/g, ""))
			.replace(/\[[^\]]*\]|\([^)]*\)|♪+/g, " ")
			.replace(/^\s*-\s+/gm, " ");
		for (const word of text.split(/\s+/).filter(Boolean)) {
			words.push(word);
			wordStarts.push(pending);
			pending = null;
		}
	}
	const timed = wordStarts.some((t) => t !== null);
	return { start, end, text: words.join(" "), ...(timed ? { wordStarts } : {}) };
}

const ENTITIES: Record<string, string> = {
	"&amp;": "&",
	"&lt;": "<",
	"&gt;": ">",
	"&quot;": '"',
	"&#39;": "'",
	"&apos;": "'",
	"&nbsp;": " ",
	"&lrm;": "",
	"&rlm;": "",
};
const decodeEntities = (text: string) =>
	text.replace(/&(?:amp|lt|gt|quot|apos|nbsp|lrm|rlm|#39);/g, (e) => ENTITIES[e]!);

interface RawCue {
	start: number;
	end: number;
	lines: string[];
}

/**
 * Rolling captions (YouTube's automatic ones) show each line twice: as a cue's new line, then at the
 * top of the next cue, and between them a cue of a few milliseconds that only repeats. Said once,
 * each is kept once: a cue too short to be read is dropped, and a first line that repeats the
 * previous cue's last line is dropped from the cue.
 */
function withoutRepeatedLines(cues: RawCue[]): RawCue[] {
	const plain = (line: string) => line.replace(/<[^>]*>/g, "").trim();
	let previousLast = "";
	const kept: RawCue[] = [];
	for (const cue of cues) {
		if (cue.end - cue.start < 0.05) continue;
		const lines =
			cue.lines[0] !== undefined && plain(cue.lines[0]) === previousLast ? cue.lines.slice(1) : cue.lines;
		previousLast = plain(cue.lines[cue.lines.length - 1] ?? "");
		kept.push({ ...cue, lines });
	}
	return kept;
}

/** The words of a cue's text: by spaces, or by `Intl.Segmenter` in scripts without them (punctuation kept on the word before it). */
export function wordsOf(text: string, language: string | null): string[] {
	if (!hasUnspaced(text)) return text.split(/\s+/).filter(Boolean);
	const segmenter = new Intl.Segmenter(language ?? undefined, { granularity: "word" });
	const words: string[] = [];
	for (const { segment, isWordLike } of segmenter.segment(text)) {
		if (segment.trim() === "") continue;
		if (!isWordLike && words.length > 0) words[words.length - 1] += segment;
		else words.push(segment);
	}
	return words;
}

/** How long a word takes to say, relative to the others of its cue: its letters, marks and digits (graphemes), at least one. */
export function weightOf(word: string): number {
	const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });
	let n = 0;
	for (const { segment } of graphemes.segment(word)) if (/[\p{L}\p{N}]/u.test(segment)) n++;
	return Math.max(1, n);
}

/** The cues as the pipeline's transcript, only the words said inside `frame`. */
export function transcriptFromCues(
	cues: Cue[],
	options: { duration: number; language: string; frame?: { start: number; end: number } },
): Transcript {
	const frame = options.frame ?? { start: 0, end: options.duration };
	const segments: Segment[] = [];
	for (const cue of cues) {
		const words = timedWords(cue, options.language).filter(
			(w) => w.start >= frame.start - 0.01 && w.end <= Math.min(frame.end, options.duration) + 0.01,
		);
		if (words.length === 0) continue;
		segments.push({
			start: words[0]!.start,
			end: words[words.length - 1]!.end,
			text: joinWords(words.map((w) => w.word)),
			words,
		});
	}
	const words = segments.flatMap((s) => s.words);
	return {
		language: options.language,
		duration: options.duration,
		text: joinWords(segments.map((s) => s.text)),
		segments,
		words,
	};
}

function timedWords(cue: Cue, language: string): Word[] {
	if (cue.wordStarts) return wordsAtGivenTimes(cue);
	const words = wordsOf(cue.text, language);
	const weights = words.map(weightOf);
	const total = weights.reduce((a, b) => a + b, 0);
	const seconds = cue.end - cue.start;
	let at = cue.start;
	return words.map((word, k) => {
		const end = at + (seconds * weights[k]!) / total;
		const timed = { word, start: round3(at), end: round3(end) };
		at = end;
		return timed;
	});
}

/** Words whose starts the captions gave (a word without one starts where the one before ends, spread evenly). */
function wordsAtGivenTimes(cue: Cue): Word[] {
	const words = cue.text.split(" ");
	const starts = words.map((_, k) => cue.wordStarts![k] ?? null);
	starts[0] ??= cue.start;
	for (let k = 1; k < starts.length; k++) {
		if (starts[k] !== null) continue;
		let next = k;
		while (next < starts.length && starts[next] === null) next++;
		const until = next < starts.length ? starts[next]! : cue.end;
		for (let n = k; n < next; n++)
			starts[n] = starts[k - 1]! + ((until - starts[k - 1]!) * (n - k + 1)) / (next - k + 1);
		k = next - 1;
	}
	return words.map((word, k) => ({
		word,
		start: round3(Math.max(cue.start, starts[k]!)),
		end: round3(Math.min(cue.end, k + 1 < words.length ? starts[k + 1]! : cue.end)),
	}));
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;
