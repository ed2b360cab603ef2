/**
 * How well chapters follow the topics people marked: Pk (Beeferman et al. 1999) and WindowDiff
 * (Pevzner & Hearst 2002) against QMSum train's `topic_list` (the annotated topic of each turn
 * range of a meeting), both over the meeting's words, with k half the mean length of a true topic
 * (lower is better; 0 is perfect, a random guess is about 0.5). Beside the offline chapters, two
 * baselines in the same run: uniform chapters with the true number of topics, and plain TextTiling
 * (Hearst 1997 with NLTK's defaults: 20-word pseudo-sentences, blocks of 10, cutoff mean − sd/2).
 */
import { chapterSpans } from "@clipforge/domain";
import { chapterUnitsOf, type ChapterUnit as Unit } from "@clipforge/moments/chapters/offline/chapter-units";
import { chaptersOfUnits } from "@clipforge/moments/chapters/offline/chapters-offline";
import { DEFAULT_SEGMENT_PARAMS, type SegmentParams } from "@clipforge/moments/chapters/offline/segment";
import type { Transcript } from "@clipforge/moments/text";
import { loadQmsumTrain, type QmsumHalf, type QmsumMeeting } from "./qmsum.ts";
import { hashSeed, turnsToTranscript } from "./turns-to-transcript.ts";

export interface ChapterItem {
	id: string;
	transcript: Transcript;
	units: Unit[];
	/** Start time of each word, and its true topic's index. */
	wordTimes: number[];
	truth: number[];
	topicCount: number;
}

/** Meetings of one half with at least two annotated topics, as transcripts with per-word truth. */
export function buildChapterCorpus(half: QmsumHalf): ChapterItem[] | null {
	const meetings = loadQmsumTrain(half);
	if (!meetings) return null;
	return meetings.flatMap((m) => {
		const item = itemOf(m);
		return item && item.topicCount >= 2 ? [item] : [];
	});
}

function itemOf(meeting: QmsumMeeting): ChapterItem | null {
	if (meeting.topics.length === 0) return null;
	// Each turn's topic: the first topic whose span holds it; a turn no span holds keeps the previous topic.
	const topicOfTurn: number[] = [];
	let current = 0;
	meeting.turns.forEach((_, t) => {
		const found = meeting.topics.findIndex((topic) => topic.spans.some(([a, b]) => t >= a && t <= b));
		if (found >= 0) current = found;
		topicOfTurn.push(current);
	});
	// Topics as segments in time order: a change of topic between turns is a boundary.
	const { transcript, turnTimes } = turnsToTranscript(meeting.turns, {
		seed: hashSeed(meeting.id),
		style: "whisper",
	});
	const wordTimes = transcript.words.map((w) => w.start);
	let turn = 0;
	let segment = 0;
	const truth: number[] = [];
	for (const time of wordTimes) {
		while (turn + 1 < turnTimes.length && turnTimes[turn + 1]!.start <= time) {
			turn++;
			if (topicOfTurn[turn] !== topicOfTurn[turn - 1]) segment++;
		}
		truth.push(segment);
	}
	const topicCount = (truth.at(-1) ?? 0) + 1;
	return { id: meeting.id, transcript, units: chapterUnitsOf(transcript), wordTimes, truth, topicCount };
}

/** Per-word segment labels from segment start times (the first at 0). */
export function labelsOf(wordTimes: number[], starts: number[]): number[] {
	const sorted = [...starts].sort((a, b) => a - b);
	let s = 0;
	return wordTimes.map((t) => {
		while (s + 1 < sorted.length && sorted[s + 1]! <= t) s++;
		return s;
	});
}

export function pk(truth: number[], guess: number[], k: number): number {
	let wrong = 0;
	const n = truth.length - k;
	for (let i = 0; i < n; i++) if ((truth[i] === truth[i + k]) !== (guess[i] === guess[i + k])) wrong++;
	return n > 0 ? wrong / n : 0;
}

export function windowDiff(truth: number[], guess: number[], k: number): number {
	let wrong = 0;
	const n = truth.length - k;
	for (let i = 0; i < n; i++) if (truth[i + k]! - truth[i]! !== guess[i + k]! - guess[i]!) wrong++;
	return n > 0 ? wrong / n : 0;
}

/** Half the mean true segment length in words (at least 2). */
export function windowOf(truth: number[]): number {
	const segments = (truth.at(-1) ?? 0) + 1;
	return Math.max(2, Math.round(truth.length / segments / 2));
}

export type Segmenter = (item: ChapterItem) => number[];

/**
 * The chapter starts (seconds) that the segmentation's unit starts make once cut to YouTube's
 * rules as the product cuts them, or [0] when they do not make chapters: what an experiment that
 * calls `segmentUnits` itself scores.
 */
export function chapterStartsOf(item: ChapterItem, unitStarts: number[]): number[] {
	const spans = chapterSpans(
		unitStarts.slice(1).map((i) => item.units[i]!.start),
		item.transcript.duration,
	);
	return spans ? spans.map((s) => s.start) : [0];
}

export const clipforgeChapters =
	(params: SegmentParams = DEFAULT_SEGMENT_PARAMS): Segmenter =>
	(item) => {
		const result = chaptersOfUnits(item.units, item.transcript.duration, params);
		return result.chapters.length ? result.chapters.map((c) => c.start) : [0];
	};

export const uniformWithTrueCount: Segmenter = (item) =>
	Array.from({ length: item.topicCount }, (_, i) => (i * item.transcript.duration) / item.topicCount);

/** Hearst's TextTiling as NLTK runs it by default, boundaries snapped to the nearest sentence start. */
export const plainTextTiling: Segmenter = (item) => {
	const W = 20;
	const K = 10;
	const tokens = item.units.flatMap((u) => u.terms.map((t) => ({ t, unit: u.index })));
	const sequences: { terms: string[]; lastUnit: number }[] = [];
	for (let i = 0; i < tokens.length; i += W) {
		const slice = tokens.slice(i, i + W);
		sequences.push({ terms: slice.map((x) => x.t), lastUnit: slice.at(-1)!.unit });
	}
	const gaps = sequences.length - 1;
	if (gaps < 2) return [0];
	const counts = (from: number, to: number) => {
		const m = new Map<string, number>();
		for (let s = Math.max(0, from); s < Math.min(sequences.length, to); s++)
			for (const t of sequences[s]!.terms) m.set(t, (m.get(t) ?? 0) + 1);
		return m;
	};
	const score: number[] = [];
	for (let g = 0; g < gaps; g++) score.push(cosine(counts(g - K + 1, g + 1), counts(g + 1, g + 1 + K)));
	const smooth = score.map((_, g) => {
		const window = score.slice(Math.max(0, g - 1), g + 2);
		return window.reduce((a, b) => a + b, 0) / window.length;
	});
	const depth = smooth.map((v, g) => {
		let left = v;
		for (let k = g; k >= 0 && smooth[k]! >= left; k--) left = smooth[k]!;
		let right = v;
		for (let k = g; k < smooth.length && smooth[k]! >= right; k++) right = smooth[k]!;
		return left - v + (right - v);
	});
	const mean = depth.reduce((a, b) => a + b, 0) / depth.length;
	const sd = Math.sqrt(depth.reduce((a, b) => a + (b - mean) ** 2, 0) / depth.length);
	const starts = [0];
	depth.forEach((d, g) => {
		const isPeak = (g === 0 || d >= depth[g - 1]!) && (g === depth.length - 1 || d >= depth[g + 1]!);
		if (isPeak && d > mean - sd / 2) {
			const next = item.units[sequences[g]!.lastUnit + 1];
			if (next && next.start > starts.at(-1)!) starts.push(next.start);
		}
	});
	return starts;
};

/** The cosine of two bags of words (term → count). */
export function cosine<T>(a: Map<T, number>, b: Map<T, number>): number {
	let dot = 0;
	let na = 0;
	let nb = 0;
	for (const [t, x] of a) {
		na += x * x;
		dot += x * (b.get(t) ?? 0);
	}
	for (const y of b.values()) nb += y * y;
	return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

export interface SegmentationScore {
	meetings: number;
	pk: number;
	windowDiff: number;
	/** Mean number of chapters found, beside the true mean. */
	meanChapters: number;
}

export function scoreSegmenter(items: ChapterItem[], segmenter: Segmenter): SegmentationScore {
	let pkSum = 0;
	let wdSum = 0;
	let chapters = 0;
	for (const item of items) {
		const starts = segmenter(item);
		const guess = labelsOf(item.wordTimes, starts);
		const k = windowOf(item.truth);
		pkSum += pk(item.truth, guess, k);
		wdSum += windowDiff(item.truth, guess, k);
		chapters += starts.length;
	}
	const n = Math.max(1, items.length);
	return {
		meetings: items.length,
		pk: round3(pkSum / n),
		windowDiff: round3(wdSum / n),
		meanChapters: Math.round((chapters / n) * 10) / 10,
	};
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;
