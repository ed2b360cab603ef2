/**
 * `npx tsx tools/quality/chapter-experiments/errors.ts`: where the offline chapters' Pk comes from on
 * QMSum train's **dev** series: misses (a true change inside the window, none found) against false
 * alarms (a change found, none true), the offset of each true change to the nearest found start, and
 * what Pk would be with the true starts but the short topics dropped.
 */
import { DEFAULT_SEGMENT_PARAMS, segmentUnits } from "@clipforge/moments/chapters/offline/segment";
import { buildChapterCorpus, chapterStartsOf, labelsOf, windowOf, type ChapterItem } from "../chapters-eval.ts";
import { seriesOf } from "../qmsum.ts";
import { cueBonus, tieredBonus } from "./topic-cues.ts";

const CUE = Number(process.env.CUE ?? 0);
const TIERS = process.env.TIERS?.split(",").map(Number);
const PRICE = Number(process.env.PRICE ?? DEFAULT_SEGMENT_PARAMS.chapterPrice);

const items = buildChapterCorpus("dev")!;

function startsOf(item: ChapterItem): number[] {
	const duration = item.transcript.duration;
	const starts = segmentUnits(item.units, duration, { ...DEFAULT_SEGMENT_PARAMS, chapterPrice: PRICE }, 3, {
		bonusOf: TIERS ? (view) => tieredBonus(view, TIERS) : CUE ? (view) => cueBonus(view, CUE, "around") : undefined,
	});
	return chapterStartsOf(item, starts);
}

function trueStarts(item: ChapterItem): number[] {
	const out = [0];
	item.truth.forEach((t, w) => {
		if (w > 0 && t !== item.truth[w - 1]) out.push(item.wordTimes[w]!);
	});
	return out;
}

function split(truth: number[], guess: number[], k: number) {
	let miss = 0;
	let fa = 0;
	const n = truth.length - k;
	for (let i = 0; i < n; i++) {
		const ts = truth[i] === truth[i + k];
		const gs = guess[i] === guess[i + k];
		if (!ts && gs) miss++;
		if (ts && !gs) fa++;
	}
	return { miss: miss / n, fa: fa / n };
}

let miss = 0;
let fa = 0;
const bySeries = new Map<string, { pk: number; n: number; found: number; true: number }>();
const offsets: number[] = [];
const shares: number[] = [];
const dropShort: Record<string, number> = {};
for (const item of items) {
	const starts = startsOf(item);
	const k = windowOf(item.truth);
	const s = split(item.truth, labelsOf(item.wordTimes, starts), k);
	miss += s.miss;
	fa += s.fa;
	const series = seriesOf(item.id).slice(0, 3);
	const entry = bySeries.get(series) ?? { pk: 0, n: 0, found: 0, true: 0 };
	entry.pk += s.miss + s.fa;
	entry.n++;
	entry.found += starts.length;
	entry.true += item.topicCount;
	bySeries.set(series, entry);
	const truthStarts = trueStarts(item);
	const duration = item.transcript.duration;
	for (let b = 1; b < truthStarts.length; b++) {
		const t = truthStarts[b]!;
		const nearest = starts
			.slice(1)
			.reduce((best, x) => (Math.abs(x - t) < Math.abs(best - t) ? x : best), Infinity);
		offsets.push((nearest - t) / duration);
	}
	for (let b = 0; b < truthStarts.length; b++)
		shares.push(((truthStarts[b + 1] ?? duration) - truthStarts[b]!) / duration);
	for (const cut of [0.03, 0.05, 0.08, 0.12]) {
		const kept = truthStarts.filter((t, b) => b === 0 || ((truthStarts[b + 1] ?? duration) - t) / duration >= cut);
		const sp = split(item.truth, labelsOf(item.wordTimes, kept), k);
		dropShort[cut] = (dropShort[cut] ?? 0) + (sp.miss + sp.fa) / items.length;
	}
}
const n = items.length;
console.log(
	`dev ${n} meetings: Pk ${((miss + fa) / n).toFixed(3)} = misses ${(miss / n).toFixed(3)} + false alarms ${(fa / n).toFixed(3)}`,
);
for (const [series, e] of bySeries)
	console.log(
		`${series}: ${e.n} meetings Pk ${(e.pk / e.n).toFixed(3)} found ${(e.found / e.n).toFixed(1)} true ${(e.true / e.n).toFixed(1)}`,
	);
const abs = offsets.map(Math.abs).sort((a, b) => a - b);
const q = (p: number) => abs[Math.floor(p * (abs.length - 1))]!.toFixed(3);
console.log(
	`|offset| of true changes to nearest found start (share of video): quartiles ${q(0.25)} ${q(0.5)} ${q(0.75)}, within 0.03: ${(abs.filter((x) => x < 0.03).length / abs.length).toFixed(2)}, within 0.1: ${(abs.filter((x) => x < 0.1).length / abs.length).toFixed(2)}`,
);
const sorted = [...shares].sort((a, b) => a - b);
console.log(
	`true topic shares: deciles ${[0.1, 0.2, 0.3, 0.5, 0.7, 0.9].map((p) => sorted[Math.floor(p * (sorted.length - 1))]!.toFixed(3)).join(" ")}`,
);
console.log(`true starts with topics shorter than a share dropped: ${JSON.stringify(dropShort)}`);
if (process.env.SHOW)
	for (const item of items) {
		const m = (x: number) => (x / 60).toFixed(0);
		console.log(
			`${item.id} ${m(item.transcript.duration)}m true: ${trueStarts(item).map(m).join(" ")} | found: ${startsOf(item).map(m).join(" ")}`,
		);
	}
