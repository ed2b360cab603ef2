/**
 * What the substance model reads of each sentence: the discussion it sits in (the talk within
 * ±90 s, duration-weighted) and where it sits in the video. In a meeting the passages people ask
 * about afterwards weigh options and explain (evaluative words, long sentences, the video's main
 * topic), while the talk nobody asks about retells (past tense, names), is halting, or is the
 * opening and closing business. Running sums, so one pass over the sentences.
 */
import type { Unit } from "../../text/units.ts";
import type { UnitVector } from "./unit-features.ts";

/** Seconds either side of a sentence that make up its discussion. */
export const DISCUSSION_REACH_SECONDS = 90;
/** A talk shorter than this has no opening and closing business worth the name. */
const EDGES_FROM_SECONDS = 600;
/** How far into a long talk its opening reaches (and its closing back from the end), in seconds. */
const EDGE_SECONDS = 120;

/** Per-sentence values averaged over the discussion around each sentence. */
const AVERAGED = [
	"evaluation",
	"pastTense",
	"thirdPerson",
	"properNouns",
	"length",
	"chatter",
	"reasoning",
	"centrality",
	"disfluency",
] as const;

/** Names of substanceInput's entries, in order. */
export const SUBSTANCE_INPUTS = [...AVERAGED.map((f) => `discussion:${f}`), "nearEdge", "middle"];

/** Every sentence's substance-model input (SUBSTANCE_INPUTS). */
export function substanceInputs(units: Unit[], vectors: UnitVector[]): number[][] {
	const columns = AVERAGED.map((f) =>
		discussionMeans(
			units,
			f === "evaluation"
				? units.map((u) => (u.evaluative / Math.max(1, u.wordCount)) * 5)
				: vectors.map((v) => v[f]),
		),
	);
	const first = units[0]?.start ?? 0;
	const length = Math.max(1, (units[units.length - 1]?.end ?? 0) - first);
	return units.map((u, k) => {
		const at = (u.start + u.end) / 2 - first;
		return [
			...columns.map((c) => c[k]!),
			length < EDGES_FROM_SECONDS ? 0 : Math.exp(-at / EDGE_SECONDS) + Math.exp(-(length - at) / EDGE_SECONDS),
			1 - Math.abs((2 * at) / length - 1),
		];
	});
}

/** Duration-weighted mean of `values` over the sentences whose middles lie within ±DISCUSSION_REACH_SECONDS. */
function discussionMeans(units: Unit[], values: number[]): number[] {
	const middle = (k: number) => (units[k]!.start + units[k]!.end) / 2;
	const weight = (k: number) => units[k]!.end - units[k]!.start + 0.1;
	const out: number[] = [];
	let lo = 0;
	let hi = 0;
	let sum = 0;
	let total = 0;
	for (let k = 0; k < units.length; k++) {
		for (; hi < units.length && middle(hi) <= middle(k) + DISCUSSION_REACH_SECONDS; hi++) {
			sum += values[hi]! * weight(hi);
			total += weight(hi);
		}
		for (; lo < hi && middle(lo) < middle(k) - DISCUSSION_REACH_SECONDS; lo++) {
			sum -= values[lo]! * weight(lo);
			total -= weight(lo);
		}
		out.push(total > 0 ? sum / total : 0);
	}
	return out;
}
