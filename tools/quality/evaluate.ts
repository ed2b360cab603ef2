/**
 * Scores rankers on the corpora: planted highlights (recall@5, precision@5, boundary error) and
 * prompts with annotated answers (hit@1, hit@3). A ranker is any function from a transcript and a
 * config to clips, so the baselines and both of clipforge's paths are measured the same way.
 */
import type { Transcript } from "@clipforge/moments/text";
import { answers, iou, mean, round3, type Span } from "./metrics.ts";
import type { TalkItem } from "./talk-corpus.ts";

export type Ranker = (
	transcript: Transcript,
	options: { min: number; max: number; prompt: string | null; genre: string },
) => Promise<Span[]> | Span[];

export interface HighlightScore {
	recallAt5: number;
	precisionAt5: number;
	/** Mean |clip start − highlight start| and |clip end − highlight end| over matched highlights. */
	startErrorSeconds: number | null;
	endErrorSeconds: number | null;
	/** Mean signed differences: negative start = the clip opens early, positive end = it runs on. */
	startBiasSeconds: number | null;
	endBiasSeconds: number | null;
	/**
	 * The same two errors over the matched highlights no longer than the clips may last, and how many highlights
	 * are longer: a clip cannot end on the payoff of a highlight longer than the range's maximum.
	 */
	fitting: { startErrorSeconds: number | null; endErrorSeconds: number | null; longerThanMax: number };
	/** Mean length of the five best clips, and of the highlights. */
	clipSeconds: number;
	highlightSeconds: number;
	highlights: number;
	/** Share of planted hook-like distractor lines that fall inside a top-5 clip. */
	distractorsPicked: number;
	rankingMsPerHour: number;
	perGenre: Record<string, { recallAt5: number; highlights: number }>;
}

const IOU_MATCH = 0.5;
const TOP = 5;

export async function scoreHighlights(
	items: TalkItem[],
	ranker: Ranker,
	clipRange = { min: 15, max: 60 },
): Promise<HighlightScore> {
	const tallies: Tallies = {
		found: [],
		precise: [],
		startErrors: [],
		endErrors: [],
		fits: [],
		longerThanMax: 0,
		clipLengths: [],
		highlightLengths: [],
		distractors: [],
		byGenre: new Map(),
	};
	let ms = 0;
	let hours = 0;
	for (const item of items) {
		const started = performance.now();
		const clips = (await ranker(item.transcript, { ...clipRange, prompt: null, genre: item.genre })).slice(0, TOP);
		ms += performance.now() - started;
		hours += item.transcript.duration / 3600;
		tallyItem(tallies, item, clips, clipRange.max);
	}
	return summaryOf(tallies, Math.round(ms / Math.max(1e-9, hours)));
}

/** Per highlight, clip and distractor of every item: 1 for a hit, 0 for a miss, and the lengths and edge errors. */
interface Tallies {
	found: number[];
	precise: number[];
	startErrors: number[];
	endErrors: number[];
	/** Per matched highlight (as the errors): whether it is no longer than the clips may last. */
	fits: boolean[];
	/** Highlights longer than the clips may last, matched or not. */
	longerThanMax: number;
	clipLengths: number[];
	highlightLengths: number[];
	distractors: number[];
	byGenre: Map<string, number[]>;
}

/** Adds one item's top clips to the tallies: which highlights they found, which clips are highlights, which distractors they hold. */
function tallyItem(t: Tallies, item: TalkItem, clips: { start: number; end: number }[], maxSeconds: number): void {
	for (const h of item.highlights) {
		const best = clips.map((c) => ({ c, overlap: iou(c, h) })).sort((a, b) => b.overlap - a.overlap)[0];
		const hit = best !== undefined && best.overlap >= IOU_MATCH;
		t.found.push(hit ? 1 : 0);
		t.byGenre.set(item.genre, [...(t.byGenre.get(item.genre) ?? []), hit ? 1 : 0]);
		t.highlightLengths.push(h.end - h.start);
		if (h.end - h.start > maxSeconds) t.longerThanMax += 1;
		if (hit) {
			t.startErrors.push(best.c.start - h.start);
			t.endErrors.push(best.c.end - h.end);
			t.fits.push(h.end - h.start <= maxSeconds);
		}
	}
	for (const c of clips) {
		t.precise.push(item.highlights.some((h) => iou(c, h) >= IOU_MATCH) ? 1 : 0);
		t.clipLengths.push(c.end - c.start);
	}
	for (const d of item.distractors)
		t.distractors.push(
			clips.some((c) => (d.start + d.end) / 2 >= c.start && (d.start + d.end) / 2 <= c.end) ? 1 : 0,
		);
}

function summaryOf(t: Tallies, rankingMsPerHour: number): HighlightScore {
	const { found, startErrors, endErrors } = t;
	const fitting = (errors: number[]) => errors.filter((_, k) => t.fits[k]).map(Math.abs);
	const meanOrNull = (xs: number[]) => (xs.length ? round3(mean(xs)) : null);
	return {
		recallAt5: round3(mean(found)),
		precisionAt5: round3(mean(t.precise)),
		startErrorSeconds: startErrors.length ? round3(mean(startErrors.map(Math.abs))) : null,
		endErrorSeconds: endErrors.length ? round3(mean(endErrors.map(Math.abs))) : null,
		startBiasSeconds: startErrors.length ? round3(mean(startErrors)) : null,
		endBiasSeconds: endErrors.length ? round3(mean(endErrors)) : null,
		fitting: {
			startErrorSeconds: meanOrNull(fitting(startErrors)),
			endErrorSeconds: meanOrNull(fitting(endErrors)),
			longerThanMax: t.longerThanMax,
		},
		clipSeconds: round3(mean(t.clipLengths)),
		highlightSeconds: round3(mean(t.highlightLengths)),
		highlights: found.length,
		distractorsPicked: round3(mean(t.distractors)),
		rankingMsPerHour,
		perGenre: Object.fromEntries(
			[...t.byGenre].map(([genre, hits]) => [genre, { recallAt5: round3(mean(hits)), highlights: hits.length }]),
		),
	};
}

export interface PromptItem {
	id: string;
	transcript: Transcript;
	queries: { query: string; kind: string; answers: Span[] }[];
	/** Times (s) where a human-marked topic begins, after the first (QMSum's topic_list), when known. */
	boundaries?: number[];
}

export interface PromptScore {
	hitAt1: number;
	hitAt3: number;
	queries: number;
	/** Queries that got no clip at all (the ranker found nothing relevant enough). */
	empty: number;
	rankingMsPerQuery: number;
	perKind: Record<string, { hitAt1: number; hitAt3: number; queries: number }>;
}

/** hit@k: one of the first k clips "contains the answer" (at least half of it lies inside an annotated answer passage). */
export async function scorePrompts(
	items: PromptItem[],
	ranker: Ranker,
	clipRange = { min: 15, max: 90 },
): Promise<PromptScore> {
	const at1: number[] = [];
	const at3: number[] = [];
	const kinds = new Map<string, { at1: number[]; at3: number[] }>();
	let empty = 0;
	let ms = 0;
	for (const item of items) {
		for (const q of item.queries) {
			const started = performance.now();
			const clips = await ranker(item.transcript, { ...clipRange, prompt: q.query, genre: "Auto" });
			ms += performance.now() - started;
			if (clips.length === 0) empty++;
			const one = clips[0] && answers(clips[0], q.answers) ? 1 : 0;
			const three = clips.slice(0, 3).some((c) => answers(c, q.answers)) ? 1 : 0;
			at1.push(one);
			at3.push(three);
			const kind = kinds.get(q.kind) ?? { at1: [], at3: [] };
			kind.at1.push(one);
			kind.at3.push(three);
			kinds.set(q.kind, kind);
		}
	}
	return {
		hitAt1: round3(mean(at1)),
		hitAt3: round3(mean(at3)),
		queries: at1.length,
		empty,
		rankingMsPerQuery: Math.round(ms / Math.max(1, at1.length)),
		perKind: Object.fromEntries(
			[...kinds].map(([kind, v]) => [
				kind,
				{ hitAt1: round3(mean(v.at1)), hitAt3: round3(mean(v.at3)), queries: v.at1.length },
			]),
		),
	};
}

export interface SubstanceScore {
	/** Share of the ranker's clips that lie at least half inside human-marked content. */
	insideShare: number;
	/** The same for windows of the same lengths placed at random (expected value over 64 even placements each). */
	randomSameLengths: number;
	/** Share of meeting time that is human-marked content. */
	coverage: number;
	clips: number;
	meanClipSeconds: number;
	rankingMsPerHour: number;
}

/**
 * No prompt on real meetings: do the chosen clips land on substance? Human-marked content is the
 * union of the passages that answer the meeting's specific questions (the whole-meeting and
 * "summarize …" queries left out: they cover most of a meeting).
 */
export async function scoreSubstance(
	items: PromptItem[],
	ranker: Ranker,
	clipRange = { min: 15, max: 90 },
	top = 5,
): Promise<SubstanceScore> {
	const inside: number[] = [];
	const random: number[] = [];
	const lengths: number[] = [];
	let marked = 0;
	let total = 0;
	let ms = 0;
	for (const item of items) {
		const content = contentOf(item);
		if (content.length === 0) continue;
		marked += content.reduce((s, c) => s + c.end - c.start, 0);
		total += item.transcript.duration;
		const started = performance.now();
		const clips = (await ranker(item.transcript, { ...clipRange, prompt: null, genre: "Auto" })).slice(0, top);
		ms += performance.now() - started;
		for (const clip of clips) {
			const length = clip.end - clip.start;
			lengths.push(length);
			inside.push(answers(clip, content) ? 1 : 0);
			const room = Math.max(0, item.transcript.duration - length);
			let hits = 0;
			for (let k = 0; k < 64; k++) {
				const start = (room * (k + 0.5)) / 64;
				hits += answers({ start, end: start + length }, content) ? 1 : 0;
			}
			random.push(hits / 64);
		}
	}
	return {
		insideShare: round3(mean(inside)),
		randomSameLengths: round3(mean(random)),
		coverage: round3(total ? marked / total : 0),
		clips: inside.length,
		meanClipSeconds: round3(mean(lengths)),
		rankingMsPerHour: Math.round(ms / Math.max(1e-9, total / 3600)),
	};
}

/** The union of the answer passages of an item's specific (non-summary) questions, in time order. */
export function contentOf(item: PromptItem): Span[] {
	const spans = item.queries
		.filter((q) => q.kind !== "summary")
		.flatMap((q) => q.answers)
		.sort((a, b) => a.start - b.start);
	const union: Span[] = [];
	for (const s of spans) {
		const last = union[union.length - 1];
		if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
		else union.push({ ...s });
	}
	return union;
}
