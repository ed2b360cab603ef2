/**
 * `npm run bench:quality [-- --test] [--asr]`: how well moments are chosen, beside simple baselines
 * measured in the same run. By default it reads the **dev** splits only (what the ranker is fitted
 * and tuned on) and writes bench-results/quality-dev.json; `--test` reads the held-out splits only
 * (the talk corpus's test split, written by another author, and QMSum's held-out meeting series)
 * and writes bench-results/quality.json, the numbers the README reports.
 *
 * - Highlights (tools/quality/corpus/talk): ordinary talk with written highlight passages planted
 *   among hook-like distractor lines; recall@5 (a highlight counts when one of the five best clips
 *   overlaps it with IoU ≥ 0.5), precision@5, start and end error; in three transcript styles
 *   (punctuated, Whisper without fillers, plain) and planted into real meetings (QMSum train, local
 *   copy only). Each also `rough`: the highlights made exactly as disfluent as the talk around them,
 *   so the fluency baseline cannot find them. With `--asr`, also spoken by flite and transcribed by
 *   pocketsphinx.
 * - Prompts (tools/quality/corpus/meetings, and QMSum train): hit@1/hit@3 (the first clip / one of
 *   the first three holds the answer: at least half of it inside an annotated answer passage).
 * - Substance (QMSum train, no prompt): the share of the five best clips lying at least half inside
 *   the passages people asked questions about, beside windows of the same lengths placed at random.
 * - Chapters (QMSum train's `topic_list`): Pk and WindowDiff of the whole video's offline chapters
 *   against the topics people marked, beside uniform chapters with the true count and plain TextTiling.
 * - Speed and size: ranking time per hour of talk; 3 hours at 5-600 s with and without a prompt in a
 *   process limited to a 64 MB heap.
 * - Openings and topics (issue 47), no prompt, clips 15-90 s, beside same-length windows: clips
 *   opening on a word that leans on what came before, and clips crossing a human topic boundary,
 *   on QMSum (topic_list), TinyRec (recorded sessions, coarse topics) and VT-SSum (lectures, slide
 *   segments); on TinyRec also its fine topics' titles as prompts (hit@1/@3) and chapters' Pk.
 *   TinyRec and VT-SSum are read only from local copies (`npm run fetch:corpora`).
 *
 * `--test` follows the held-out protocol (docs/ranking.md): a clean working tree, one run per
 * commit (`--again "<reason>"` for another, recorded), a line per run in
 * bench-results/quality-history.jsonl, `{ commit, date, command }` in quality.json, and only
 * aggregates printed (see quality/held-out-run.ts).
 *
 * Baselines sit beside every number: random windows, windows with the fewest disfluencies, and (for
 * prompts) BM25, all at the lengths of the ranker's own clips for the same transcript and prompt.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { defaultConfig } from "../src/worker/domain/video-config.ts";
import { rankOffline } from "@clipforge/moments/ranking/offline/rank-offline";
import { rankMoments } from "@clipforge/moments";
import { unitsOf } from "@clipforge/moments/text/units";
import type { Transcript } from "@clipforge/moments/text";
import { llmFromEnvironment } from "./llm-from-env.ts";
import { buildAsrCorpus } from "./quality/asr-corpus.ts";
import {
	buildChapterCorpus,
	type ChapterItem,
	clipforgeChapters,
	plainTextTiling,
	scoreSegmenter,
	uniformWithTrueCount,
} from "./quality/chapters-eval.ts";
import { chaptersOffline } from "@clipforge/moments/chapters/offline/chapters-offline";
import { bm25Windows, bm25WindowsOfLengths, fluencyWindows, randomWindowsOfLengths } from "./quality/baselines.ts";
import { scoreHighlights, scorePrompts, scoreSubstance, type PromptItem, type Ranker } from "./quality/evaluate.ts";
import { bundleRankLong, HEAP_CAP_64MB } from "./quality/heap-cap.ts";
import { longTalk } from "./quality/long-talk.ts";
import { summaryLines } from "./quality/summary.ts";
import type { Span } from "./quality/metrics.ts";
import { buildMeetingCorpus, buildQmsumCorpus } from "./quality/prompt-corpus.ts";
import {
	buildRealFillerCorpus,
	buildTalkCorpus,
	type HighlightSet,
	type Planting,
	type Split,
	type TalkItem,
} from "./quality/talk-corpus.ts";
import { hashSeed } from "./quality/turns-to-transcript.ts";
import { aggregate, startHeldOutRun, treeState } from "./quality/held-out-run.ts";
import { chapterItemOf, scoreStructure } from "./quality/talk-structure.ts";
import { loadTinyrec, type TopicTalk } from "./quality/tinyrec.ts";
import { loadVtssum } from "./quality/vtssum.ts";

const { values } = parseArgs({
	options: {
		test: { type: "boolean" },
		asr: { type: "boolean" },
		only: { type: "string" },
		highlights: { type: "string" },
		again: { type: "string" },
	},
});
if (values.test && (values.only || values.highlights)) {
	console.error(
		"--test is the one scripted held-out run: no --only or --highlights (the protocol in docs/ranking.md)",
	);
	process.exit(2);
}
if (values.again !== undefined && !values.test) {
	console.error("--again is for a second --test run on the same commit");
	process.exit(2);
}
/** A held-out run: refused on a dirty tree or a second time on a commit; the console silenced (aggregates only). */
const heldOut = values.test ? startHeldOutRun("bench:quality --test", values.again) : null;
/** `--highlights b`: the dev split's second author's highlights instead of the first's (dev only; the test split has one set; no file written). */
const highlightSet = (values.highlights ?? "a") as HighlightSet;
if (!["a", "b"].includes(highlightSet) || (values.test && highlightSet !== "a")) {
	console.error("--highlights takes a or b, and b only on the dev split");
	process.exit(2);
}
/** `--only highlights,prompts,substance,structure,chapters,speed`: a part of the run (dev only); the file is written only for a full run. */
const parts = new Set((values.only ?? "highlights,prompts,substance,structure,chapters,speed").split(","));
const split: Split = values.test ? "test" : "dev";
const half = split === "dev" ? "dev" : "heldout";

const configFor = (o: { min: number; max: number; prompt: string | null }) => ({
	...defaultConfig(),
	clipDurationMin: o.min,
	clipDurationMax: o.max,
	customPrompt: o.prompt,
});

/** The ranker's clips per transcript and prompt, kept so the baselines can take their lengths. */
const ours = new WeakMap<Transcript, Map<string, Span[]>>();
const offline: Ranker = (transcript, o) => {
	const clips = rankOffline(transcript, configFor(o)).clips;
	const byPrompt = ours.get(transcript) ?? new Map<string, Span[]>();
	byPrompt.set(o.prompt ?? "", clips);
	ours.set(transcript, byPrompt);
	return clips;
};
/** The lengths of the clips the offline ranker gave this transcript and prompt (it runs first). */
const lengthsOf = (transcript: Transcript, prompt: string | null, count: number) =>
	(ours.get(transcript)?.get(prompt ?? "") ?? []).slice(0, count).map((c) => c.end - c.start);
const fluency: Ranker = (t, o) => fluencyWindows(t, lengthsOf(t, o.prompt, 5));
const random: Ranker = (t, o) =>
	randomWindowsOfLengths(t, lengthsOf(t, o.prompt, 5), hashSeed(`${t.duration}${o.prompt ?? ""}`));
const bm25Matched: Ranker = (t, o) => bm25WindowsOfLengths(t, o.prompt ?? "", lengthsOf(t, o.prompt, 3));
const bm25Fixed: Ranker = (t, o) => bm25Windows(t, o.prompt ?? "", 3);
const llm = llmFromEnvironment("fast");
const withLlm: Ranker | null = llm
	? async (transcript, o) => (await rankMoments(transcript, configFor(o), null, llm)).clips
	: null;

/** Progress and summary lines: on stderr, and in a held-out run only the aggregate ones (the console is silenced). */
const log = (line: string) => (heldOut ? aggregate(line) : console.error(line));
const result: Record<string, unknown> = {
	measuredAt: new Date().toISOString(),
	run: heldOut
		? {
				commit: heldOut.record.commit,
				date: heldOut.record.date,
				command: heldOut.record.command,
				...(heldOut.record.again ? { again: heldOut.record.again } : {}),
			}
		: (({ commit, dirty }) => ({ commit, workingTreeChanged: dirty.length > 0 }))(treeState()),
	split: values.test ? "held out (talk test split, QMSum held-out series)" : "dev (tuning)",
	definitions: {
		recallAt5:
			"share of planted highlights that one of the ranker's five best clips overlaps with IoU >= 0.5 (clips 15-60 s)",
		startErrorSeconds:
			"for matched highlights, mean |clip start - highlight start| (endErrorSeconds: the same for ends); bias: the signed means",
		fitting:
			"the same errors over the matched highlights no longer than the clips' maximum (60 s), and the count of highlights longer than it (whose payoff no clip can reach)",
		hitAt1: "the first clip holds the answer: at least half of it lies inside an annotated answer passage (clips 15-90 s, the seed's defaults)",
		insideShare:
			"no prompt: share of the five best clips (15-90 s) lying at least half inside the passages that answer the meeting's specific questions",
		baselines:
			"fluencyWindows, randomWindows and bm25MatchedLengths take the lengths of the offline ranker's clips for the same transcript and prompt",
		leaningOpenings:
			"no prompt, every clip the ranker returns (15-90 s): share whose first word leans on what came before (LEANING_WORDS in quality/talk-structure.ts); leaningOpeningsRandom: windows of each clip's length at 64 even placements",
		topicCrossings:
			"the same clips: share holding a human-marked topic boundary more than 1 s inside both edges; topicCrossingsRandom: the same-length windows",
		insideAskedAbout:
			"share of clips inside what people asked about: substance.insideShare (QMSum's specific queries' answer passages)",
	},
};

async function highlightSystems(items: TalkItem[]) {
	const systems: Record<string, unknown> = { clipforgeOffline: await scoreHighlights(items, offline) };
	systems.fluencyWindows = await scoreHighlights(items, fluency);
	systems.randomWindows = await scoreHighlights(items, random);
	if (withLlm) systems.clipforgeLlm = await scoreHighlights(items, withLlm);
	return systems;
}

const highlights: Record<string, unknown> = {};
for (const planting of parts.has("highlights") ? (["clean", "rough"] as Planting[]) : []) {
	for (const style of ["punctuated", "whisper", "plain", "continuous"] as const) {
		log(`highlights: ${split}, ${style}, ${planting}`);
		highlights[`${style}/${planting}`] = await highlightSystems(
			buildTalkCorpus(split, style, undefined, planting, highlightSet),
		);
	}
	const real = buildRealFillerCorpus(split, "whisper", undefined, planting, highlightSet);
	if (real) {
		log(`highlights: ${split} planted into real meetings, ${planting}`);
		highlights[`real-meetings/${planting}`] = await highlightSystems(real);
	} else highlights[`real-meetings/${planting}`] = { skipped: "no local copy of QMSum (see tools/quality/qmsum.ts)" };
}
if (values.asr && parts.has("highlights")) {
	log(`highlights: ${split} through flite + pocketsphinx`);
	// Per-episode progress only on dev.
	highlights["local-asr"] = await highlightSystems(
		await buildAsrCorpus(split, 3, 70, heldOut ? () => undefined : log),
	);
}
result.highlights = highlights;

async function promptSystems(items: PromptItem[]) {
	return {
		clipforgeOffline: await scorePrompts(items, offline),
		bm25MatchedLengths: await scorePrompts(items, bm25Matched),
		bm25Windows60s: await scorePrompts(items, bm25Fixed),
		randomWindows: await scorePrompts(items, (t, o) =>
			randomWindowsOfLengths(t, lengthsOf(t, o.prompt, 3), hashSeed(o.prompt ?? "")),
		),
		...(withLlm ? { clipforgeLlm: await scorePrompts(items, withLlm) } : {}),
	};
}

const prompts: Record<string, unknown> = {};
if (parts.has("prompts")) {
	log(`prompts: written meetings, ${split}`);
	prompts[`meetings-${split}`] = await promptSystems(buildMeetingCorpus(split));
}
const qmsum = parts.has("prompts") || parts.has("substance") || parts.has("structure") ? buildQmsumCorpus(half) : null;
if (qmsum && parts.has("prompts")) {
	log(`prompts: QMSum train, ${half} series`);
	prompts[`qmsum-train-${half}`] = await promptSystems(qmsum);
}
if (qmsum && parts.has("substance")) {
	log(`substance: QMSum train, ${half} series, no prompt`);
	result.substance = {
		[`qmsum-train-${half}`]: {
			clipforgeOffline: await scoreSubstance(qmsum, offline),
			fluencyWindows: await scoreSubstance(qmsum, fluency),
			...(withLlm ? { clipforgeLlm: await scoreSubstance(qmsum, withLlm) } : {}),
		},
	};
} else if (!qmsum && (parts.has("prompts") || parts.has("substance") || parts.has("structure"))) {
	prompts[`qmsum-train-${half}`] = { skipped: "no local copy of QMSum (see tools/quality/qmsum.ts)" };
	result.substance = { skipped: "no local copy of QMSum (see tools/quality/qmsum.ts)" };
}
/** The corpora no one here has tuned on (issue 47): TinyRec's sessions and VT-SSum's lectures, this split's side. */
const tinyrec = parts.has("structure") || parts.has("prompts") || parts.has("chapters") ? loadTinyrec(split) : null;
const vtssum = parts.has("structure") || parts.has("chapters") ? loadVtssum(split) : null;
const noCopy = (name: string, file: string) => ({ skipped: `no local copy of ${name} (see tools/quality/${file})` });
if (parts.has("prompts")) {
	const fine = tinyrec ? loadTinyrec(split, "fine") : null;
	if (fine) {
		log(`prompts: TinyRec ${split}, fine topics' titles as prompts`);
		prompts[`tinyrec-${split}-topic-titles`] = await promptSystems(fine.map(topicTitlesAsPrompts));
	} else prompts[`tinyrec-${split}-topic-titles`] = noCopy("TinyRec", "tinyrec.ts");
}
result.prompts = prompts;
if (parts.has("structure")) {
	const structure: Record<string, unknown> = {};
	const systems = async (talks: { transcript: Transcript; boundaries: number[] | null }[]) => ({
		clipforgeOffline: await scoreStructure(talks, offline),
		...(withLlm ? { clipforgeLlm: await scoreStructure(talks, withLlm) } : {}),
	});
	if (qmsum) {
		log(`openings and topics: QMSum train, ${half} series, no prompt`);
		structure[`qmsum-train-${half}`] = await systems(
			qmsum.map((m) => ({ transcript: m.transcript, boundaries: m.boundaries ?? null })),
		);
	} else structure[`qmsum-train-${half}`] = noCopy("QMSum", "qmsum.ts");
	for (const [name, talks, file] of [
		[`tinyrec-${split}`, tinyrec, "tinyrec.ts"],
		[`vtssum-${split}`, vtssum, "vtssum.ts"],
	] as const) {
		if (!talks) {
			structure[name] = noCopy(name.startsWith("tinyrec") ? "TinyRec" : "VT-SSum", file);
			continue;
		}
		log(`openings and topics: ${name}, no prompt`);
		structure[name] = await systems(talks);
	}
	result.openingsAndTopics = structure;
}
if (parts.has("chapters")) {
	log(`chapters: QMSum train topics, ${half} series; TinyRec and VT-SSum, ${split}`);
	result.chapters = chapterSegmentation();
	log(`chapters: ${JSON.stringify(result.chapters)}`);
}
if (parts.has("speed")) {
	log("speed and size");
	result.speed = speed();
}
result.llm = llm
	? llm.name
	: "none: set CLIPFORGE_LLM_URL (+ _KEY, _MODEL, _FAST_MODEL) to an OpenAI-compatible server to measure the LLM path";

for (const line of summaryLines(result)) log(line);
if (!values.only && highlightSet === "a") {
	mkdirSync("bench-results", { recursive: true });
	const out = values.test ? "bench-results/quality.json" : "bench-results/quality-dev.json";
	writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
	if (!heldOut) console.log(JSON.stringify(result, null, 2));
	heldOut?.finish();
	log(
		`written to ${out}${heldOut ? ` (commit ${heldOut.record.commit.slice(0, 10)}; run counted in bench-results/quality-history.jsonl)` : ""}`,
	);
}

/** A session's fine topics as prompts: each topic's title (a person's words for that part) answered by its span. */
function topicTitlesAsPrompts(talk: TopicTalk): PromptItem {
	return {
		id: talk.id,
		transcript: talk.transcript,
		queries: talk.topics
			.filter((t) => t.title.trim())
			.map((t) => ({ query: t.title, kind: "topic title", answers: [t.span] })),
	};
}

/**
 * Whole-video chapters against the topics people marked in QMSum train's meetings (Pk and
 * WindowDiff, lower is better), beside uniform chapters with the true count and plain TextTiling,
 * and the offline chapters' time per hour of talk.
 */
function chapterSegmentation(): Record<string, unknown> {
	const score = (items: ChapterItem[]) => ({
		meanTrueTopics: Math.round((items.reduce((n, i) => n + i.topicCount, 0) / items.length) * 10) / 10,
		clipforgeOffline: scoreSegmenter(items, clipforgeChapters()),
		uniformTrueCount: scoreSegmenter(items, uniformWithTrueCount),
		plainTextTiling: scoreSegmenter(items, plainTextTiling),
	});
	const items = buildChapterCorpus(half);
	const talks = (list: TopicTalk[] | null) => list?.map(chapterItemOf).filter((i) => i.topicCount >= 2) ?? null;
	const tinyrecItems = talks(tinyrec);
	const vtssumItems = talks(vtssum);
	return {
		[`qmsum-train-${half}`]: items
			? score(items)
			: { skipped: "no local copy of QMSum (see tools/quality/qmsum.ts)" },
		[`tinyrec-${split}`]: tinyrecItems ? score(tinyrecItems) : { skipped: "no local copy of TinyRec" },
		[`vtssum-${split}`]: vtssumItems ? score(vtssumItems) : { skipped: "no local copy of VT-SSum" },
		...chapterSpeed(),
	};
}

/**
 * The offline chapters' time per hour of talk (the 90-minute talk, warm, mean of 5 runs): the
 * process's CPU time (what the goal counts, and what a busy machine inflates least) and the wall
 * time beside it.
 */
function chapterSpeed() {
	const ninety = longTalk(90);
	chaptersOffline(ninety);
	const runs = 5;
	const cpu = process.cpuUsage();
	const started = performance.now();
	for (let k = 0; k < runs; k++) chaptersOffline(ninety);
	const used = process.cpuUsage(cpu);
	const perHour = (seconds: number) => Math.round((seconds / runs / (ninety.duration / 3600)) * 1000) / 1000;
	return {
		offlineCpuSecondsPerHourOfTalk: perHour((used.user + used.system) / 1e6),
		offlineSecondsPerHourOfTalk: perHour((performance.now() - started) / 1000),
	};
}

/** A 90-minute transcript in this process, and 3 hours at 5-600 s in a process limited to a 64 MB heap. */
function speed() {
	const ninety = longTalk(90);
	const time = (prompt: string | null) => {
		rankOffline(ninety, configFor({ min: 15, max: 90, prompt }));
		const started = performance.now();
		const runs = 3;
		for (let k = 0; k < runs; k++) rankOffline(ninety, configFor({ min: 15, max: 90, prompt }));
		return Math.round((performance.now() - started) / runs);
	};
	const dir = mkdtempSync(join(tmpdir(), "bench-quality-"));
	try {
		const long: Record<string, unknown> = {};
		const script = bundleRankLong(dir);
		for (const style of ["punctuated", "plain", "continuous"] as const) {
			const file = join(dir, `${style}.json`);
			const transcript = longTalk(180, style);
			writeFileSync(file, JSON.stringify(transcript));
			for (const prompt of [null, "why did they change the plan for the budget?"]) {
				const args = [...HEAP_CAP_64MB, script, file, "5", "600", ...(prompt ? [prompt] : [])];
				const run = spawnSync(process.execPath, args, { encoding: "utf8" });
				long[`${style}, ${prompt ? "prompt" : "no prompt"}`] =
					run.status === 0
						? { ...JSON.parse(run.stdout), sentences: unitsOf(transcript).length }
						: { failed: `exit ${run.status}: ${run.stderr.slice(-300)}` };
			}
		}
		return {
			ninetyMinutes: {
				sentences: unitsOf(ninety).length,
				msWithoutPrompt: time(null),
				msWithPrompt: time("why did they change the plan for the budget?"),
			},
			threeHoursAt5to600sIn64MBHeap: long,
			machine: "2 cores, shared with other work while measured unless stated",
		};
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
