/**
 * Rows of issue 47's table that read where clips open and end against the talk's own structure,
 * with no prompt, beside windows of the same lengths:
 *
 * - **clips opening on a word that leans on what came before**: the share of clips whose first word
 *   is one of `LEANING_WORDS` ("and", "but", "so", "because", "which" …): such a clip starts in the
 *   middle of a thought. Needs no labels.
 * - **clips crossing a human topic boundary**: the share of clips with a boundary people marked
 *   more than `EDGE_SECONDS` inside both of its edges (a clip that opens in the pause before a new
 *   topic does not cross it).
 *
 * The baseline is windows of each clip's own length at 64 even placements over the talk (an
 * expectation, not a draw), so a number never rests on a length advantage. Aggregates only.
 */
import type { Transcript } from "@clipforge/moments/text";
import { chapterUnitsOf } from "@clipforge/moments/chapters/offline/chapter-units";
import type { ChapterItem } from "./chapters-eval.ts";
import type { Ranker } from "./evaluate.ts";
import { mean, round3, type Span } from "./metrics.ts";
import type { TopicTalk } from "./tinyrec.ts";

/** Words that lean on what came before when they open a clip (conjunctions, connectives, relatives). */
export const LEANING_WORDS: ReadonlySet<string> = new Set([
	"and",
	"but",
	"so",
	"because",
	"cause",
	"cuz",
	"which",
	"or",
	"nor",
	"then",
	"also",
	"plus",
	"though",
	"although",
	"yet",
	"therefore",
	"hence",
	"thus",
	"otherwise",
	"whereas",
]);

/** A boundary this far inside a clip's edges counts as crossed (seconds). */
export const EDGE_SECONDS = 1;
const PLACEMENTS = 64;

export interface StructureScore {
	talks: number;
	clips: number;
	meanClipSeconds: number;
	/** Share of clips whose first word leans on what came before, and the same for same-length windows. */
	leaningOpenings: number;
	leaningOpeningsRandom: number;
	/** Share of clips with a human topic boundary strictly inside (null where the talk has no labels). */
	topicCrossings: number | null;
	topicCrossingsRandom: number | null;
}

const HESITATION = /^(um+|uh+|er+|erm|hmm+|mm+|uhm|ah)$/;

interface Words {
	/** Middle of each word (s). */
	starts: number[];
	bare: string[];
	/** Start times of the words that open a sentence (after . ? ! or at a segment's start), ascending. */
	sentenceStarts: number[];
}

/** A transcript's words as bare lower-case tokens with their times, for the first-word look-up. */
function wordsOf(transcript: Transcript): Words {
	const sentenceStarts: number[] = [];
	const segmentStarts = new Set(transcript.segments.map((s) => s.words[0]?.start));
	transcript.words.forEach((w, k) => {
		const previous = transcript.words[k - 1];
		if (!previous || /[.?!]["')]*$/.test(previous.word) || segmentStarts.has(w.start)) sentenceStarts.push(w.start);
	});
	return {
		starts: transcript.words.map((w) => (w.start + w.end) / 2),
		bare: transcript.words.map((w) => w.word.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "")),
		sentenceStarts,
	};
}

/** The index of the first word whose middle is at or after `t`. */
function firstAt(starts: number[], t: number): number {
	let lo = 0;
	let hi = starts.length;
	while (lo < hi) {
		const mid = (lo + hi) >> 1;
		if (starts[mid]! < t) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

const leans = (words: Words, span: Span) => {
	let k = firstAt(words.starts, span.start);
	while (k < words.bare.length && (words.bare[k] === "" || HESITATION.test(words.bare[k]!))) k++;
	return k < words.bare.length && words.starts[k]! < span.end && LEANING_WORDS.has(words.bare[k]!) ? 1 : 0;
};

/** The first sentence start at or after `t` (or `t` when none is left). */
const sentenceStartFrom = (words: Words, t: number) => {
	const k = firstAt(words.sentenceStarts, t - 1e-6);
	return k < words.sentenceStarts.length ? words.sentenceStarts[k]! : t;
};

const crosses = (boundaries: number[], span: Span) =>
	boundaries.some((b) => b > span.start + EDGE_SECONDS && b < span.end - EDGE_SECONDS) ? 1 : 0;

/**
 * No prompt, clips 15-90 s (the range the meeting rows use): every clip the ranker returns for each
 * talk, read for its first word and for the topic boundaries inside it.
 */
export async function scoreStructure(
	talks: { transcript: Transcript; boundaries: number[] | null }[],
	ranker: Ranker,
	clipRange = { min: 15, max: 90 },
): Promise<StructureScore> {
	const leaning: number[] = [];
	const leaningRandom: number[] = [];
	const crossing: number[] = [];
	const crossingRandom: number[] = [];
	const lengths: number[] = [];
	for (const talk of talks) {
		const clips = await ranker(talk.transcript, { ...clipRange, prompt: null, genre: "Auto" });
		const words = wordsOf(talk.transcript);
		for (const clip of clips) {
			const length = clip.end - clip.start;
			lengths.push(length);
			leaning.push(leans(words, clip));
			if (talk.boundaries) crossing.push(crosses(talk.boundaries, clip));
			const room = Math.max(0, talk.transcript.duration - length);
			let lean = 0;
			let cross = 0;
			for (let k = 0; k < PLACEMENTS; k++) {
				const start = sentenceStartFrom(words, (room * (k + 0.5)) / PLACEMENTS) - 0.05;
				const span = { start, end: start + length };
				lean += leans(words, span);
				if (talk.boundaries) cross += crosses(talk.boundaries, span);
			}
			leaningRandom.push(lean / PLACEMENTS);
			if (talk.boundaries) crossingRandom.push(cross / PLACEMENTS);
		}
	}
	return {
		talks: talks.length,
		clips: lengths.length,
		meanClipSeconds: round3(mean(lengths)),
		leaningOpenings: round3(mean(leaning)),
		leaningOpeningsRandom: round3(mean(leaningRandom)),
		topicCrossings: crossing.length ? round3(mean(crossing)) : null,
		topicCrossingsRandom: crossingRandom.length ? round3(mean(crossingRandom)) : null,
	};
}

/** A talk with human topics as the chapter benchmark's item (per-word truth from the boundaries). */
export function chapterItemOf(talk: TopicTalk): ChapterItem {
	const wordTimes = talk.transcript.words.map((w) => w.start);
	let segment = 0;
	const truth = wordTimes.map((t) => {
		while (segment < talk.boundaries.length && talk.boundaries[segment]! <= t) segment++;
		return segment;
	});
	return {
		id: talk.id,
		transcript: talk.transcript,
		units: chapterUnitsOf(talk.transcript),
		wordTimes,
		truth,
		topicCount: (truth.at(-1) ?? 0) + 1,
	};
}
