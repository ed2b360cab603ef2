/**
 * Scores rankers on the corpora: planted highlights (recall@5, precision@5, boundary error) and
 * prompts with annotated answers (hit@1, hit@3). A ranker is any function from a transcript and a
 * config to clips, so the baselines and both of clipforge's paths are measured the same way.
 */
import type { Transcript } from "../../src/worker/services/transcription/transcript.ts";
import { answers, iou, mean, round3, type Span } from "./metrics.ts";
import type { TalkItem } from "./talk-corpus.ts";

export type Ranker = (transcript: Transcript, options: { min: number; max: number; prompt: string | null; genre: string }) => Promise<Span[]> | Span[];

export interface HighlightScore {
	recallAt5: number;
	precisionAt5: number;
	boundaryErrorSeconds: number | null;
	highlights: number;
	/** Share of planted hook-like distractor lines that fall inside a top-5 clip. */
	distractorsPicked: number;
	rankingMsPerHour: number;
	perGenre: Record<string, { recallAt5: number; highlights: number }>;
}

const IOU_MATCH = 0.5;
const TOP = 5;

export async function scoreHighlights(items: TalkItem[], ranker: Ranker, clipRange = { min: 15, max: 60 }): Promise<HighlightScore> {
	const found: number[] = [];
	const precise: number[] = [];
	const errors: number[] = [];
	const distractors: number[] = [];
	const byGenre = new Map<string, number[]>();
	let ms = 0;
	let hours = 0;
	for (const item of items) {
		const started = performance.now();
		const clips = (await ranker(item.transcript, { ...clipRange, prompt: null, genre: item.genre })).slice(0, TOP);
		ms += performance.now() - started;
		hours += item.transcript.duration / 3600;
		for (const h of item.highlights) {
			const best = clips.map((c) => ({ c, overlap: iou(c, h) })).sort((a, b) => b.overlap - a.overlap)[0];
			const hit = best !== undefined && best.overlap >= IOU_MATCH;
			found.push(hit ? 1 : 0);
			byGenre.set(item.genre, [...(byGenre.get(item.genre) ?? []), hit ? 1 : 0]);
			if (hit) errors.push((Math.abs(best.c.start - h.start) + Math.abs(best.c.end - h.end)) / 2);
		}
		for (const c of clips) precise.push(item.highlights.some((h) => iou(c, h) >= IOU_MATCH) ? 1 : 0);
		for (const d of item.distractors) distractors.push(clips.some((c) => (d.start + d.end) / 2 >= c.start && (d.start + d.end) / 2 <= c.end) ? 1 : 0);
	}
	return {
		recallAt5: round3(mean(found)),
		precisionAt5: round3(mean(precise)),
		boundaryErrorSeconds: errors.length ? round3(mean(errors)) : null,
		highlights: found.length,
		distractorsPicked: round3(mean(distractors)),
		rankingMsPerHour: Math.round(ms / Math.max(1e-9, hours)),
		perGenre: Object.fromEntries([...byGenre].map(([genre, hits]) => [genre, { recallAt5: round3(mean(hits)), highlights: hits.length }])),
	};
}

export interface PromptItem {
	id: string;
	transcript: Transcript;
	queries: { query: string; kind: string; answers: Span[] }[];
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
export async function scorePrompts(items: PromptItem[], ranker: Ranker, clipRange = { min: 15, max: 90 }): Promise<PromptScore> {
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
		perKind: Object.fromEntries([...kinds].map(([kind, v]) => [kind, { hitAt1: round3(mean(v.at1)), hitAt3: round3(mean(v.at3)), queries: v.at1.length }])),
	};
}
