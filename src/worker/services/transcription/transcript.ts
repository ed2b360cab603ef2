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
				text: joinWords(words.map((w) => w.word)),
				words,
			});
		}
	}
	const words = segments.flatMap((s) => s.words);
	const language = ordered.map((c) => c.result.language).find((l) => l) ?? "en";
	return { language, duration, text: joinWords(segments.map((s) => s.text)), segments, words };
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;
