/**
 * QMSum (Zhong et al., NAACL 2021; AMI, ICSI and parliamentary committee meetings with queries and
 * the annotated turn spans that answer them), read from a local copy when there is one: the data
 * is not committed here. Only its **train** split is ever used (its val and test splits are kept for
 * independent evaluation); train meetings are split by a hash of their id into `dev` (tuning) and
 * `heldout` (reported, never tuned on).
 *
 * Where: `QMSUM_DIR` (a folder holding `data/ALL/train/*.json`), or the mirror the search tool
 * fetches (`/work/.mirror/Yale-LILY+QMSum/repo`, a bare git snapshot read with `git show`).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { hashSeed, type Turn } from "./turns-to-transcript.ts";

export interface QmsumMeeting {
	id: string;
	turns: Turn[];
	queries: { query: string; answers: [number, number][] }[];
}

const MIRROR = "/work/.mirror/Yale-LILY+QMSum/repo";

interface RawMeeting {
	meeting_transcripts: { speaker: string; content: string }[];
	specific_query_list: { query: string; relevant_text_span: [string, string][] }[];
}

/** Train meetings of one half, or null when no copy of QMSum is on this machine. */
export function loadQmsumTrain(half: "dev" | "heldout"): QmsumMeeting[] | null {
	const raw = readTrain();
	if (!raw) return null;
	return raw
		.filter(({ id }) => (hashSeed(id) % 2 === 0 ? "dev" : "heldout") === half)
		.map(({ id, meeting }) => ({
			id,
			turns: meeting.meeting_transcripts.map((t) => ({ speaker: t.speaker, text: cleanTurn(t.content) })),
			queries: meeting.specific_query_list.map((q) => ({ query: q.query, answers: q.relevant_text_span.map(([a, b]) => [Number(a), Number(b)] as [number, number]) })),
		}));
}

function readTrain(): { id: string; meeting: RawMeeting }[] | null {
	const dir = process.env.QMSUM_DIR;
	if (dir && existsSync(join(dir, "data/ALL/train"))) {
		const folder = join(dir, "data/ALL/train");
		return readdirSync(folder)
			.filter((f) => f.endsWith(".json"))
			.sort()
			.map((f) => ({ id: f.replace(/\.json$/, ""), meeting: JSON.parse(readFileSync(join(folder, f), "utf8")) as RawMeeting }));
	}
	if (!existsSync(MIRROR)) return null;
	const names = execFileSync("git", ["-C", MIRROR, "ls-tree", "--name-only", "HEAD", "data/ALL/train/"], { encoding: "utf8" })
		.split("\n")
		.filter((f) => f.endsWith(".json"))
		.sort();
	return names.map((path) => ({
		id: path.replace(/^.*\//, "").replace(/\.json$/, ""),
		meeting: JSON.parse(execFileSync("git", ["-C", MIRROR, "show", `HEAD:${path}`], { encoding: "utf8", maxBuffer: 64 << 20 })) as RawMeeting,
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
