/**
 * QMSum (Zhong et al., NAACL 2021; AMI, ICSI and parliamentary committee meetings with queries and
 * the annotated turn spans that answer them), read from a local copy when there is one: the data
 * is not committed here. Only its **train** split is ever used (its val and test splits are kept for
 * independent evaluation); train meetings are split **by meeting series** into `dev` (tuning) and
 * `heldout` (reported, never tuned on), so no series has sessions on both sides: the four sessions
 * of an AMI design team (ES2002a-d), one ICSI research group's meetings (Bmr, Bro, Bed, …) and one
 * committee's sessions (covid_*, education_*) each land wholly in one half.
 *
 * Where: `QMSUM_DIR` (a folder holding `data/ALL/train/*.json`), `.corpora/qmsum` (`npm run
 * fetch:corpora`), or the mirror the search tool fetches (`/work/.mirror/Yale-LILY+QMSum/repo`, a
 * bare git snapshot read with `git show`).
 */
import { corpusSource, type CorpusSource } from "./corpus-source.ts";
import { hashSeed, type Turn } from "./turns-to-transcript.ts";

export interface QmsumMeeting {
	id: string;
	series: string;
	turns: Turn[];
	queries: { query: string; answers: [number, number][] }[];
	/** The annotated topics in order, each with the turn ranges (inclusive) that discuss it. */
	topics: { topic: string; spans: [number, number][] }[];
}

export type QmsumHalf = "dev" | "heldout";

const MIRROR = "/work/.mirror/Yale-LILY+QMSum/repo";

interface RawMeeting {
	meeting_transcripts: { speaker: string; content: string }[];
	specific_query_list: { query: string; relevant_text_span: [string, string][] }[];
	topic_list?: { topic: string; relevant_text_span: [string, string][] }[];
}

/** The series a meeting belongs to: "ES2002" for ES2002a, "Bmr" for Bmr013, "covid" for covid_7. */
export function seriesOf(id: string): string {
	return id.match(/^(ES|IS|TS)\d{4}/)?.[0] ?? id.match(/^B[a-z]{2}/)?.[0] ?? id.replace(/_\d+$/, "");
}

/**
 * Which half a series is in: one bit of a mixed hash of its name. The salt (1) is the first for
 * which every family (AMI, ICSI, committee) has series in both halves and each half holds 40-60%
 * of the meetings and of the ICSI meetings; chosen on those counts alone, before any ranking was
 * measured on the halves. Dev: 72 meetings (ICSI Bro and Buw, the education committee); held out:
 * 90 (ICSI Bed, Bmr and Bdb, the covid committee).
 */
export function halfOf(id: string): QmsumHalf {
	return mix(hashSeed(`qmsum-series-1:${seriesOf(id)}`)) % 2 === 0 ? "dev" : "heldout";
}

/** A 32-bit finaliser (MurmurHash3's): FNV's low bit is only the parity of the characters. */
function mix(h: number): number {
	h ^= h >>> 16;
	h = Math.imul(h, 0x85ebca6b);
	h ^= h >>> 13;
	h = Math.imul(h, 0xc2b2ae35);
	h ^= h >>> 16;
	return h >>> 0;
}

let cache: { id: string; meeting: RawMeeting }[] | null | undefined;

/** Train meetings of one half, or null when no copy of QMSum is on this machine. */
export function loadQmsumTrain(half: QmsumHalf): QmsumMeeting[] | null {
	cache ??= readTrain();
	if (!cache) return null;
	return cache
		.filter(({ id }) => halfOf(id) === half)
		.map(({ id, meeting }) => ({
			id,
			series: seriesOf(id),
			turns: meeting.meeting_transcripts.map((t) => ({ speaker: t.speaker, text: cleanTurn(t.content) })),
			queries: meeting.specific_query_list.map((q) => ({
				query: q.query,
				answers: q.relevant_text_span.map(([a, b]) => [Number(a), Number(b)] as [number, number]),
			})),
			topics: (meeting.topic_list ?? []).map((t) => ({
				topic: t.topic,
				spans: t.relevant_text_span.map(([a, b]) => [Number(a), Number(b)] as [number, number]),
			})),
		}));
}

/** Where QMSum is read from: `QMSUM_DIR`, `.corpora/qmsum` (`npm run fetch:corpora`) or the mirror; null without a copy. */
export function qmsumSource(): CorpusSource | null {
	return corpusSource("QMSUM_DIR", "qmsum", MIRROR);
}

function readTrain(): { id: string; meeting: RawMeeting }[] | null {
	const source = qmsumSource();
	if (!source) return null;
	const names = source.list("data/ALL/train").filter((f) => f.endsWith(".json"));
	if (names.length === 0) return null;
	return names.map((name) => ({
		id: name.replace(/\.json$/, ""),
		meeting: JSON.parse(source.read(`data/ALL/train/${name}`)) as RawMeeting,
	}));
}

/** QMSum's transcripts are tokenised ("our project ." "{vocalsound}"): back to text as an ASR would print it. */
export function cleanTurn(content: string): string {
	return content
		.replace(/\{[a-z_]+\}/gi, " ")
		.replace(/\s+([.,?!;:])/g, "$1")
		.replace(/\s+(n't|'s|'re|'ve|'ll|'d|'m)\b/gi, "$1")
		.replace(/\s+/g, " ")
		.trim();
}
