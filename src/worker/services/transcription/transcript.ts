/**
 * The stored transcript assembled from the transcription's chunks: which stretches of audio are
 * transcribed (`planAudioChunks`) and how their results join into one transcript
 * (`mergeChunkTranscripts`). The transcript's shape and its sentences are `@clipforge/moments/text`'s.
 */
import { joinWords } from "@clipforge/moments/text";
import type { Segment, TranscribeResult } from "@clipforge/contract";
import type { Transcript } from "@clipforge/moments/text";

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
 * neither lost nor doubled. A segment the seam cut in two (its end went to the next chunk, whose
 * first segment lost its start to this one) is one segment again: the ranking reads a segment's
 * end as a sentence's, and "Why does" | "this work…" is not two sentences.
 */
export function mergeChunkTranscripts(
	chunks: { plan: ChunkPlan; result: TranscribeResult }[],
	duration: number,
): Transcript {
	const ordered = [...chunks].sort((a, b) => a.plan.start - b.plan.start);
	const segments: Segment[] = [];
	let cutAtSeam = false;
	for (const [i, { plan, result }] of ordered.entries()) {
		const range = keptRange(ordered, i);
		// Only the chunk just before can have cut this one's first segment.
		const cutBefore = cutAtSeam;
		cutAtSeam = false;
		for (const [n, segment] of result.segments.entries()) {
			const timed = segment.words.map((w) => ({
				word: w.word,
				start: round3(w.start + plan.start),
				end: round3(w.end + plan.start),
			}));
			const words = timed.filter((w) => inRange(w, range));
			if (words.length === 0) continue;
			const continues = n === 0 && cutBefore && timed.some((w) => midOf(w) < range.lower);
			const previous = continues ? segments.pop()! : null;
			const all = previous ? [...previous.words, ...words] : words;
			segments.push({
				start: all[0]!.start,
				end: all.at(-1)!.end,
				text: joinWords(all.map((w) => w.word)),
				words: all,
			});
			cutAtSeam = n === result.segments.length - 1 && timed.some((w) => midOf(w) >= range.upper);
		}
	}
	const words = segments.flatMap((s) => s.words);
	const language = ordered.map((c) => c.result.language).find((l) => l) ?? "en";
	return { language, duration, text: joinWords(segments.map((s) => s.text)), segments, words };
}

/** The times whose words chunk `i` keeps: from the middle of its overlap with the chunk before to the middle of the one after. */
function keptRange(ordered: { plan: ChunkPlan }[], i: number): { lower: number; upper: number } {
	const { plan } = ordered[i]!;
	const before = ordered[i - 1]?.plan;
	const next = ordered[i + 1]?.plan;
	return {
		lower: before ? plan.start + (before.start + before.duration - plan.start) / 2 : -Infinity,
		upper: next ? next.start + (plan.start + plan.duration - next.start) / 2 : Infinity,
	};
}

const midOf = (w: { start: number; end: number }) => (w.start + w.end) / 2;
const inRange = (w: { start: number; end: number }, range: { lower: number; upper: number }) =>
	midOf(w) >= range.lower && midOf(w) < range.upper;

const round3 = (n: number) => Math.round(n * 1000) / 1000;
