/**
 * The highlight benchmark: episodes of ordinary talk (tools/quality/corpus/talk/<split>/) with the
 * split's written highlight passages planted at turn boundaries, five per episode, each highlight
 * used once per build (seeded). Turned into transcripts as Whisper (punctuated) or the local engine
 * (plain) would give them. `realFiller` plants the same highlights into real meetings instead
 * (QMSum train, local only), so the filler is real conversation nobody wrote for this project.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Transcript } from "../../src/worker/services/transcription/transcript.ts";
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

export function readTalkSplit(split: Split): { episodes: Episode[]; highlights: Highlight[] } {
	const dir = join(CORPUS, split);
	const episodes = readdirSync(dir)
		.filter((f) => /^ep-\d+\.json$/.test(f))
		.sort()
		.map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as Episode);
	const highlights = JSON.parse(readFileSync(join(dir, "highlights.json"), "utf8")) as Highlight[];
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
): TalkItem[] {
	const { episodes, highlights } = readTalkSplit(split);
	const random = prng(seed + hashSeed(split));
	// Each episode takes highlights of its own genre where there are enough, the rest from any genre.
	const pool = shuffle([...highlights], random);
	const take = (genre: Genre) => {
		const at = pool.findIndex((h) => h.genre === genre);
		return pool.splice(at === -1 ? 0 : at, 1)[0]!;
	};
	return episodes.map((episode) => {
		const planted = Array.from({ length: PER_EPISODE }, () => take(episode.genre)).filter(Boolean);
		return plant(
			`${split}/${episode.id}`,
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

/** The split's highlights planted, five per meeting, into real meetings (QMSum train), or null without a local copy. */
export function buildRealFillerCorpus(
	split: Split,
	style: TranscriptStyle = "punctuated",
	seed = 20261124,
	planting: Planting = "clean",
): TalkItem[] | null {
	const meetings = loadQmsumTrain(split === "dev" ? "dev" : "heldout");
	if (!meetings) return null;
	const { highlights } = readTalkSplit(split);
	const random = prng(seed + hashSeed(split));
	const pool = shuffle([...highlights], random);
	const chosen = meetings.filter((m) => m.turns.length > 200).slice(0, Math.floor(pool.length / PER_EPISODE));
	return chosen.map((meeting, n) =>
		plant(
			`qmsum-${split}/${meeting.id}`,
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
