/**
 * The highlight benchmark: episodes of ordinary talk (tools/quality/corpus/talk/<split>/) with the
 * split's written highlight passages planted at turn boundaries, five per episode, each highlight
 * used once per build (seeded). Turned into transcripts as Whisper (punctuated) or the local engine
 * (plain) would give them. `realFiller` plants the same highlights into real meetings instead
 * (QMSum train, local only), so the filler is real conversation nobody wrote for this project.
 *
 * The dev split holds two sets of highlights by two authors: `a` (highlights.json, mostly one
 * speaker's 100-145-word monologue) and `b` (highlights-b.json, 60-230 words, half of them exchanges
 * between speakers). The models are fitted on `a` (train-ranker.ts); `b`, planted apart, checks how
 * they read an author they never saw. The test split has one set, by a third author.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Transcript } from "@clipforge/moments/text";
import type { Span } from "./metrics.ts";
import { loadQmsumTrain } from "./qmsum.ts";
import { profileOf, roughen } from "./roughen.ts";
import { hashSeed, prng, turnsToTranscript, type TranscriptStyle, type Turn } from "./turns-to-transcript.ts";

export type Split = "dev" | "test";
export type Genre = "Podcast" | "Education" | "Gaming" | "Entertainment";

interface Episode {
	id: string;
	genre: Genre;
	turns: Turn[];
	distractorTurns: number[];
}

interface Highlight {
	id: string;
	genre: Genre;
	kind: string;
	turns: Turn[];
}

export interface TalkItem {
	id: string;
	genre: Genre;
	transcript: Transcript;
	highlights: (Span & { id: string; kind: string })[];
	/** Where the hook-like distractor lines were said. */
	distractors: Span[];
}

const CORPUS = join(import.meta.dirname, "corpus", "talk");
const PER_EPISODE = 5;

/** Which author's highlights: `a` in every split, `b` in dev only. */
export type HighlightSet = "a" | "b";
const HIGHLIGHT_FILES: Record<HighlightSet, string> = { a: "highlights.json", b: "highlights-b.json" };

/** The name a build's items and seed carry: the split, and the set when it is not the first author's. */
const corpusName = (split: Split, set: HighlightSet) => (set === "a" ? split : `${split}-${set}`);

export function readTalkSplit(split: Split, set: HighlightSet = "a"): { episodes: Episode[]; highlights: Highlight[] } {
	const dir = join(CORPUS, split);
	const episodes = readdirSync(dir)
		.filter((f) => /^ep-\d+\.json$/.test(f))
		.sort()
		.map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as Episode);
	const highlights = JSON.parse(readFileSync(join(dir, HIGHLIGHT_FILES[set]), "utf8")) as Highlight[];
	return { episodes, highlights };
}

/**
 * How highlights are planted: as written (`clean`), or `rough`: each made as disfluent as the talk
 * it is planted into (roughen.ts), so that fluency alone cannot find it.
 */
export type Planting = "clean" | "rough";

/** Every episode of the split with five of its highlights planted. */
export function buildTalkCorpus(
	split: Split,
	style: TranscriptStyle = "punctuated",
	seed = 20261123,
	planting: Planting = "clean",
	set: HighlightSet = "a",
): TalkItem[] {
	const { episodes, highlights } = readTalkSplit(split, set);
	const name = corpusName(split, set);
	const random = prng(seed + hashSeed(name));
	// Each episode takes highlights of its own genre where there are enough, the rest from any genre.
	const pool = shuffle([...highlights], random);
	const take = (genre: Genre) => {
		const at = pool.findIndex((h) => h.genre === genre);
		return pool.splice(at === -1 ? 0 : at, 1)[0]!;
	};
	return episodes.map((episode) => {
		const planted = Array.from({ length: PER_EPISODE }, () => take(episode.genre)).filter(Boolean);
		return plant(
			`${name}/${episode.id}`,
			episode.genre,
			episode.turns,
			episode.distractorTurns,
			planted,
			style,
			random,
			planting,
		);
	});
}

/**
 * The split's highlights planted, five per meeting, into real meetings (QMSum train), or null without
 * a local copy. Set `b` goes into the meetings after the ones set `a` takes.
 */
export function buildRealFillerCorpus(
	split: Split,
	style: TranscriptStyle = "punctuated",
	seed = 20261124,
	planting: Planting = "clean",
	set: HighlightSet = "a",
): TalkItem[] | null {
	const meetings = loadQmsumTrain(split === "dev" ? "dev" : "heldout");
	if (!meetings) return null;
	const { highlights } = readTalkSplit(split, set);
	const name = corpusName(split, set);
	const random = prng(seed + hashSeed(name));
	const pool = shuffle([...highlights], random);
	const count = Math.floor(pool.length / PER_EPISODE);
	const skip = set === "a" ? 0 : count;
	const chosen = meetings.filter((m) => m.turns.length > 200).slice(skip, skip + count);
	return chosen.map((meeting, n) =>
		plant(
			`qmsum-${name}/${meeting.id}`,
			"Podcast",
			meeting.turns,
			[],
			pool.slice(n * PER_EPISODE, (n + 1) * PER_EPISODE),
			style,
			random,
			planting,
		),
	);
}

function plant(
	id: string,
	genre: Genre,
	turns: Turn[],
	distractorTurns: number[],
	written: Highlight[],
	style: TranscriptStyle,
	random: () => number,
	planting: Planting,
): TalkItem {
	// Roughened with a generator of its own, so the clean and rough corpora plant at the same places.
	const rough = prng(hashSeed(`rough:${id}`));
	const profile = planting === "rough" ? profileOf(turns) : null;
	const planted = profile ? written.map((h) => ({ ...h, turns: roughen(h.turns, profile, rough) })) : written;
	// Five insertion points at turn boundaries, spread out: each in its own fifth of the episode.
	const cuts = planted.map((_, k) => {
		const from = Math.floor((turns.length * k) / planted.length) + 3;
		const to = Math.floor((turns.length * (k + 1)) / planted.length) - 3;
		return Math.max(1, Math.min(turns.length - 1, from + Math.floor(random() * Math.max(1, to - from))));
	});
	const all: Turn[] = [];
	const highlightTurns: [number, number, Highlight][] = [];
	const distractorAt: number[] = [];
	const distractors = new Set(distractorTurns);
	let next = 0;
	turns.forEach((turn, i) => {
		if (next < cuts.length && i === cuts[next]) {
			const h = planted[next]!;
			highlightTurns.push([all.length, all.length + h.turns.length - 1, h]);
			all.push(...h.turns);
			next++;
		}
		if (distractors.has(i)) distractorAt.push(all.length);
		all.push(turn);
	});
	const { transcript, turnTimes } = turnsToTranscript(all, { seed: hashSeed(id), style });
	return {
		id,
		genre,
		transcript,
		highlights: highlightTurns.map(([a, b, h]) => ({
			id: h.id,
			kind: h.kind,
			start: turnTimes[a]!.start,
			end: turnTimes[b]!.end,
		})),
		distractors: distractorAt.map((i) => turnTimes[i]!),
	};
}

function shuffle<T>(list: T[], random: () => number): T[] {
	for (let i = list.length - 1; i > 0; i--) {
		const j = Math.floor(random() * (i + 1));
		[list[i], list[j]] = [list[j]!, list[i]!];
	}
	return list;
}
