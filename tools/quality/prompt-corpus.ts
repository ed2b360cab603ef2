/**
 * The prompt benchmark: written meetings with queries and annotated answers
 * (tools/quality/corpus/meetings/<split>/), and QMSum's train meetings (local copy only) split into
 * a dev half and a held-out half. Turned into transcripts like the talk corpus.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { PromptItem } from "./evaluate.ts";
import { loadQmsumTrain } from "./qmsum.ts";
import { hashSeed, turnsToTranscript, type TranscriptStyle, type Turn } from "./turns-to-transcript.ts";

interface Meeting {
	id: string;
	turns: Turn[];
	queries: { query: string; kind: string; answers: [number, number][] }[];
	/** Per turn, the index of the human-marked topic it belongs to (QMSum's topic_list), when there is one. */
	topicOfTurn?: number[];
}

const CORPUS = join(import.meta.dirname, "corpus", "meetings");

function toItem(id: string, meeting: Meeting, style: TranscriptStyle): PromptItem {
	const { transcript, turnTimes } = turnsToTranscript(meeting.turns, { seed: hashSeed(id), style });
	const topics = meeting.topicOfTurn;
	const boundaries = topics
		? turnTimes.flatMap((t, k) => (k > 0 && topics[k] !== topics[k - 1] ? [t.start] : []))
		: undefined;
	return {
		id,
		transcript,
		...(boundaries ? { boundaries } : {}),
		queries: meeting.queries.map((q) => ({
			query: q.query,
			kind: q.kind,
			answers: q.answers.map(([a, b]) => ({
				start: turnTimes[a]!.start,
				end: turnTimes[Math.min(b, turnTimes.length - 1)]!.end,
			})),
		})),
	};
}

export function buildMeetingCorpus(split: "dev" | "test", style: TranscriptStyle = "punctuated"): PromptItem[] {
	const dir = join(CORPUS, split);
	return readdirSync(dir)
		.filter((f) => f.endsWith(".json"))
		.sort()
		.map((f) => toItem(`${split}/${f}`, JSON.parse(readFileSync(join(dir, f), "utf8")) as Meeting, style));
}

/** QMSum train meetings of one half with their specific queries (the whole-meeting summaries left out), or null without a local copy. */
export function buildQmsumCorpus(half: "dev" | "heldout", style: TranscriptStyle = "punctuated"): PromptItem[] | null {
	const meetings = loadQmsumTrain(half);
	if (!meetings) return null;
	return meetings.map((m) =>
		toItem(
			`qmsum/${m.id}`,
			{
				id: m.id,
				turns: m.turns,
				queries: m.queries.map((q) => ({
					query: q.query,
					kind: /^summar/i.test(q.query) ? "summary" : "question",
					answers: q.answers,
				})),
				...(m.topics.length ? { topicOfTurn: topicOfTurns(m.topics, m.turns.length) } : {}),
			},
			style,
		),
	);
}

/** Each turn's topic: the first topic whose span holds it; a turn no span holds keeps the one before (as chapters-eval reads them). */
export function topicOfTurns(topics: { spans: [number, number][] }[], turns: number): number[] {
	const out: number[] = [];
	let current = 0;
	for (let t = 0; t < turns; t++) {
		const found = topics.findIndex((topic) => topic.spans.some(([a, b]) => t >= a && t <= b));
		if (found >= 0) current = found;
		out.push(current);
	}
	return out;
}
