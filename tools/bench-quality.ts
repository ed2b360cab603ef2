/**
 * `npm run bench:quality`: recall@5 and boundary error of the rankers on the synthetic corpus
 * (tools/quality-corpus.ts), written to bench-results/quality.json.
 *
 * recall@5: share of planted highlights that one of a transcript's five best clips matches with a
 * temporal IoU ≥ 0.5. Boundary error: for matched highlights, the mean of |Δstart| and |Δend| (s).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { VideoConfigInput } from "../src/worker/domain/video-config.ts";
import { rankClipBasic } from "../src/worker/services/ranking/clip-basic.ts";
import { rankMoments } from "../src/worker/services/ranking/rank-moments.ts";
import { llmFromEnvironment } from "./llm-from-env.ts";
import { buildCorpus, type CorpusItem } from "./quality-corpus.ts";

const IOU_MATCH = 0.5;
const TOP = 5;

interface Score {
	highlights: number;
	recalled: number;
	boundaryErrors: number[];
}

const iou = (a: { start: number; end: number }, b: { start: number; end: number }) => {
	const inter = Math.max(0, Math.min(a.end, b.end) - Math.max(a.start, b.start));
	return inter / (Math.max(a.end, b.end) - Math.min(a.start, b.start));
};

function evaluate(item: CorpusItem, clips: { start: number; end: number; score: number }[]): Score {
	const top = [...clips].sort((a, b) => b.score - a.score).slice(0, TOP);
	const score: Score = { highlights: item.highlights.length, recalled: 0, boundaryErrors: [] };
	for (const highlight of item.highlights) {
		const best = top.map((c) => ({ c, overlap: iou(c, highlight) })).sort((a, b) => b.overlap - a.overlap)[0];
		if (best && best.overlap >= IOU_MATCH) {
			score.recalled++;
			score.boundaryErrors.push((Math.abs(best.c.start - highlight.start) + Math.abs(best.c.end - highlight.end)) / 2);
		}
	}
	return score;
}

function summarise(scores: Score[]) {
	const highlights = scores.reduce((n, s) => n + s.highlights, 0);
	const recalled = scores.reduce((n, s) => n + s.recalled, 0);
	const errors = scores.flatMap((s) => s.boundaryErrors);
	return {
		recallAt5: round(recalled / highlights),
		boundaryErrorSeconds: errors.length ? round(errors.reduce((a, b) => a + b, 0) / errors.length) : null,
		highlights,
		recalled,
	};
}

const round = (n: number) => Math.round(n * 1000) / 1000;

const started = Date.now();
const corpus = buildCorpus();
const built = Date.now();
const config = VideoConfigInput.parse({ clipDurationMin: 15, clipDurationMax: 60 });
const byGenre = new Map<string, Score[]>();
const all: Score[] = [];
const allAuto: Score[] = [];
let rankMs = 0;
for (const item of corpus) {
	const t0 = Date.now();
	const { clips } = rankClipBasic(item.transcript, { ...config, genre: item.genre }, item.signals);
	rankMs += Date.now() - t0;
	const score = evaluate(item, clips);
	all.push(score);
	byGenre.set(item.genre, [...(byGenre.get(item.genre) ?? []), score]);
	allAuto.push(evaluate(item, rankClipBasic(item.transcript, { ...config, genre: "Auto" }, item.signals).clips));
}
const hours = corpus.reduce((h, item) => h + item.transcript.duration / 3600, 0);
const llm = llmFromEnvironment();
let clipPro: Record<string, unknown> = { skipped: "no LLM is reachable from this machine (Workers AI needs a Cloudflare login); set CLIPFORGE_LLM_URL (+ _KEY, _MODEL) to measure ClipPro" };
if (llm) {
	const scores: Score[] = [];
	const fallbacks: string[] = [];
	for (const item of corpus) {
		const outcome = await rankMoments(item.transcript, { ...config, clipModel: "ClipPro", genre: item.genre }, item.signals, llm);
		if (!outcome.rankedBy.startsWith("ClipPro")) fallbacks.push(`${item.id}: ${outcome.rankedBy}`);
		scores.push(evaluate(item, outcome.clips));
	}
	clipPro = { model: llm.name, ...summarise(scores), fallbacks };
}
const result = {
	measuredAt: new Date().toISOString(),
	corpus: {
		transcripts: corpus.length,
		hours: round(hours),
		minutesEach: { min: Math.min(...corpus.map((c) => c.transcript.duration / 60)), max: Math.max(...corpus.map((c) => c.transcript.duration / 60)) },
		highlightsEach: 5,
		buildMs: built - started,
	},
	match: `a highlight counts as found when one of the ${TOP} best clips overlaps it with IoU >= ${IOU_MATCH}`,
	ClipBasic: {
		...summarise(all),
		withGenreAuto: summarise(allAuto),
		perGenre: Object.fromEntries([...byGenre].map(([genre, scores]) => [genre, summarise(scores)])),
		rankingMsPerHourOfVideo: round(rankMs / hours),
	},
	ClipPro: clipPro,
};
mkdirSync("bench-results", { recursive: true });
writeFileSync("bench-results/quality.json", `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
