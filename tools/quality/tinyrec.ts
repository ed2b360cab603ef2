/**
 * TinyRec ("TreeSeg: Hierarchical Topic Segmentation of Large Transcripts", Augmend, 2024,
 * arXiv:2407.12028; github.com/AugmendTech/treeseg, `datasets/augmend/`, Apache-2.0): 21 real
 * self-recorded sessions of one or more speakers, transcribed with utterance timings, each with
 * human topic annotations at two levels (coarse and fine: entry ranges with a title). Another
 * source than QMSum (AMI, ICSI, parliamentary committees) and than the written corpora here.
 *
 * Used only to measure: its `dev` folder (5 sessions) is this bench's dev side, its `test` folder
 * (16 sessions) the held-out side. Never committed. Where: `TINYREC_DIR` (a clone of the
 * repository), `.corpora/treeseg` (`npm run fetch:corpora`), or the fetched mirror.
 *
 * The loader keeps the spoken entries (the recorder's screen events, which carry a `type`, are
 * not speech) and gives each word a time inside its utterance by its letters, as
 * turns-to-transcript.ts times words inside a turn.
 */
import type { Segment, Word } from "@clipforge/contract";
import type { Transcript } from "@clipforge/moments/text";
import { corpusSource } from "./corpus-source.ts";
import type { Span } from "./metrics.ts";

export type TinyrecSplit = "dev" | "test";

export interface TopicTalk {
	id: string;
	/** The kind of talk, for reports ("recorded sessions", "lectures", "meetings"). */
	family: string;
	transcript: Transcript;
	/** Times (s) at which a human-marked topic begins, after the first, ascending. */
	boundaries: number[];
	/** Human-marked topics in time order: their title (read by the prompt rows only) and span. */
	topics: { title: string; span: Span }[];
}

const MIRROR = "/work/.mirror/AugmendTech+treeseg/repo";
const FOLDER = "datasets/augmend";

interface RawEntry {
	start: number;
	end: number;
	composite: string;
	type?: string | null;
}

/** The sessions of one split, or null when no copy is on this machine. `level` picks coarse or fine topics. */
export function loadTinyrec(split: TinyrecSplit, level: "coarse" | "fine" = "coarse"): TopicTalk[] | null {
	const source = corpusSource("TINYREC_DIR", "treeseg", MIRROR);
	if (!source) return null;
	const names = source.list(`${FOLDER}/${split}`).filter((f) => f.endsWith(".json") && !f.endsWith("_anno.json"));
	if (names.length === 0) return null;
	return names.map((name) => {
		const raw = JSON.parse(source.read(`${FOLDER}/${split}/${name}`)) as Record<string, { entries: RawEntry[] }>;
		const anno = JSON.parse(source.read(`${FOLDER}/${split}/${name.replace(/\.json$/, "_anno.json")}`)) as Record<
			string,
			Record<"coarse" | "fine", [number, number, string][]>
		>;
		const entries = Object.values(raw)[0]!.entries;
		const ranges = Object.values(anno)[0]![level];
		return talkOf(`tinyrec/${split}/${name.replace(/\.json$/, "")}`, entries, ranges);
	});
}

function talkOf(id: string, entries: RawEntry[], ranges: [number, number, string][]): TopicTalk {
	const origin = entries[0]?.start ?? 0;
	const segments: Segment[] = [];
	const times: Span[] = [];
	for (const e of entries) {
		const start = Math.max(0, e.start - origin);
		const end = Math.max(start, e.end - origin);
		times.push({ start, end });
		if (e.type) continue;
		const tokens = e.composite.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w));
		if (tokens.length === 0) continue;
		const words = timeWords(tokens, start, end);
		segments.push({ start: words[0]!.start, end: words.at(-1)!.end, text: tokens.join(" "), words });
	}
	const words = segments.flatMap((s) => s.words);
	const duration = round3(Math.max(words.at(-1)?.end ?? 0, times.at(-1)?.end ?? 0) + 1);
	const at = (index: number) => times[Math.min(Math.max(0, index), times.length - 1)]!;
	const topics = ranges
		.map(([a, b, title]) => ({ title, span: { start: at(a).start, end: Math.max(at(a).start, at(b).end) } }))
		.sort((x, y) => x.span.start - y.span.start);
	const boundaries = [...new Set(topics.slice(1).map((t) => round3(t.span.start)))].filter((b) => b > 0);
	return {
		id,
		family: "recorded sessions",
		transcript: { language: "en", duration, text: segments.map((s) => s.text).join(" "), segments, words },
		boundaries,
		topics,
	};
}

/** Words spread over their utterance by length (longer words take longer), or 0.35 s each when it has no length. */
function timeWords(tokens: string[], start: number, end: number): Word[] {
	const weights = tokens.map((t) => 0.55 + 0.09 * t.replace(/[^\p{L}\p{N}]/gu, "").length);
	const total = weights.reduce((a, b) => a + b, 0);
	const span = end - start > 0.2 * tokens.length ? end - start : 0.35 * tokens.length;
	let t = start;
	return tokens.map((word, k) => {
		const length = (weights[k]! / total) * span;
		const w = { word, start: round3(t), end: round3(t + length * 0.92) };
		t += length;
		return w;
	});
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;
