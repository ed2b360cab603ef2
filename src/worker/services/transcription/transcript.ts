/**
 * The stored transcript (`transcripts/{videoId}.json`, the same JSON `GET …/transcript` will serve):
 * language, segments with words, and all words with absolute times in seconds.
 */
import type { Segment, TranscribeResult, Word } from "@clipforge/contract";

export interface Transcript {
	language: string;
	duration: number;
	text: string;
	segments: Segment[];
	words: Word[];
}

export interface ChunkPlan {
	index: number;
	start: number;
	duration: number;
}

export const CHUNK_OVERLAP_SECONDS = 2;

/**
 * Cuts the stretch `from`..`to` (seconds; the config's time frame) into chunks of `chunkSeconds`,
 * each reaching `overlap` seconds into the next so a word cut at a boundary is heard whole by one
 * of the two chunks. Only the time frame is transcribed (and paid for).
 * @example planAudioChunks(0, 1250, 600) // [{0, 0, 602}, {1, 600, 602}, {2, 1200, 50}]
 */
export function planAudioChunks(
	from: number,
	to: number,
	chunkSeconds: number,
	overlap = CHUNK_OVERLAP_SECONDS,
): ChunkPlan[] {
	const chunks: ChunkPlan[] = [];
	for (let start = from, index = 0; start < to - 0.05; start += chunkSeconds, index++) {
		const duration = Math.min(chunkSeconds + overlap, to - start);
		chunks.push({ index, start: round3(start), duration: round3(duration) });
		// This chunk (with its overlap) reaches the end: a further one would be a sliver with no audio.
		if (start + duration >= to - 0.05) break;
	}
	return chunks;
}

/**
 * Joins per-chunk results (times relative to each chunk) into one transcript. Inside an overlap
 * each word belongs to the chunk whose half of the overlap holds its midpoint, so seam words are
 * neither lost nor doubled.
 */
export function mergeChunkTranscripts(
	chunks: { plan: ChunkPlan; result: TranscribeResult }[],
	duration: number,
): Transcript {
	const ordered = [...chunks].sort((a, b) => a.plan.start - b.plan.start);
	const segments: Segment[] = [];
	for (const [i, { plan, result }] of ordered.entries()) {
		const next = ordered[i + 1];
		const lower =
			i === 0
				? -Infinity
				: plan.start + (ordered[i - 1]!.plan.start + ordered[i - 1]!.plan.duration - plan.start) / 2;
		const upper = next ? next.plan.start + (plan.start + plan.duration - next.plan.start) / 2 : Infinity;
		for (const segment of result.segments) {
			const words = segment.words
				.map((w) => ({ word: w.word, start: round3(w.start + plan.start), end: round3(w.end + plan.start) }))
				.filter((w) => {
					const mid = (w.start + w.end) / 2;
					return mid >= lower && mid < upper;
				});
			if (words.length === 0) continue;
			segments.push({
				start: words[0]!.start,
				end: words[words.length - 1]!.end,
				text: words.map((w) => w.word.trim()).join(" "),
				words,
			});
		}
	}
	const words = segments.flatMap((s) => s.words);
	const language = ordered.map((c) => c.result.language).find((l) => l) ?? "en";
	return { language, duration, text: segments.map((s) => s.text).join(" "), segments, words };
}

export interface Sentence {
	start: number;
	end: number;
	text: string;
	words: Word[];
	/** True when it ends with . ! ? or at a pause long enough to be a sentence end. */
	closed: boolean;
}

const SENTENCE_END = /[.!?…]["'”’)]*$/;
/** Titles and abbreviations Whisper writes with a stop inside a sentence: "Mr. Dunley's window". */
const ABBREVIATION = /^(mr|mrs|ms|dr|prof|st|jr|sr|vs|mt|e\.g|i\.e)\.$/i;

/** Whether a word ends its sentence: a stop that is not an abbreviation's ("Mr."). */
export const endsSentence = (word: string) => {
	const trimmed = word.trim();
	return SENTENCE_END.test(trimmed) && !ABBREVIATION.test(trimmed);
};
/** Without punctuation (the local engine has none), a pause this long ends a sentence. */
const PAUSE_SECONDS = 0.6;
/** With punctuation (Whisper), punctuation decides; only a silence this long ends a sentence on its own. */
const PUNCTUATED_PAUSE_SECONDS = 2;

/** Splits the transcript into sentences: at punctuation, at segment ends and at long pauses. */
export function sentencesOf(transcript: Pick<Transcript, "segments">): Sentence[] {
	const sentences: Sentence[] = [];
	const punctuated = transcript.segments.some((s) => s.words.some((w) => endsSentence(w.word)));
	const pause = punctuated ? PUNCTUATED_PAUSE_SECONDS : PAUSE_SECONDS;
	for (const segment of transcript.segments) {
		let current: Word[] = [];
		const close = (closed: boolean) => {
			if (current.length === 0) return;
			sentences.push({
				start: current[0]!.start,
				end: current[current.length - 1]!.end,
				text: current.map((w) => w.word.trim()).join(" "),
				words: current,
				closed,
			});
			current = [];
		};
		segment.words.forEach((word, i) => {
			current.push(word);
			const next = segment.words[i + 1];
			if (endsSentence(word.word)) close(true);
			else if (next && next.start - word.end >= pause) close(true);
		});
		close(true);
	}
	return sentences;
}

/**
 * Sentences as one text. The local engine writes no stops ("… in Chicago Every morning …"): where none
 * of the sentences ends with one, each that ended at a pause takes a full stop, or a question mark
 * when the caller reads it as a question, and the next opens with a capital.
 */
export function textWithStops(
	sentences: readonly (Pick<Sentence, "text" | "closed"> & { question?: boolean })[],
): string {
	if (sentences.some((s) => SENTENCE_END.test(s.text))) return sentences.map((s) => s.text).join(" ");
	let opens = false;
	return sentences
		.map((s) => {
			const text = opens ? s.text.charAt(0).toUpperCase() + s.text.slice(1) : s.text;
			opens = s.closed;
			return opens ? `${text}${s.question ? "?" : "."}` : text;
		})
		.join(" ");
}

/** The text of the words inside [start, end] (each given by `wordOf`), in sentences as `textWithStops` writes them. */
export function clipText(
	transcript: Pick<Transcript, "segments">,
	start: number,
	end: number,
	wordOf: (word: Word) => string = (word) => word.word,
): string {
	const segments = transcript.segments
		.map((segment) => {
			const words = segment.words
				.filter((w) => w.end > start && w.start < end)
				.map((w) => ({ ...w, word: wordOf(w) }))
				.filter((w) => w.word.trim());
			return { ...segment, text: words.map((w) => w.word.trim()).join(" "), words };
		})
		.filter((segment) => segment.words.length > 0);
	return textWithStops(sentencesOf({ segments }));
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;
