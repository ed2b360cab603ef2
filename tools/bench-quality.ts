/**
 * `npm run bench:quality [-- --dev-only] [--asr]`: how well moments are chosen, on corpora the
 * ranker was never tuned on, beside simple baselines measured in the same run. Written to
 * bench-results/quality.json.
 *
 * - Highlights (tools/quality/corpus/talk): ordinary talk with written highlight passages planted
 *   among hook-like distractor lines; recall@5 (a highlight counts when one of the five best clips
 *   overlaps it with IoU ≥ 0.5), precision@5, boundary error; per genre; in three transcript styles
 *   (punctuated, Whisper without fillers, plain), and planted into real meetings (QMSum train,
 *   local copy only). With `--asr`, also spoken by flite and transcribed by pocketsphinx.
 * - Prompts (tools/quality/corpus/meetings, and QMSum train): hit@1/hit@3 (the first clip / one of
 *   the first three holds the answer: at least half of it inside an annotated answer passage).
 * - Speed: ranking time per hour of talk, and a 90-minute, 1,500-sentence transcript with and
 *   without a prompt.
 *
 * The `dev` splits are what the ranker was fitted and tuned on; `test` (and QMSum's held-out half)
 * were never read while tuning. `--dev-only` skips them (for tuning runs).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { defaultConfig } from "../src/worker/domain/video-config.ts";
import { rankOffline } from "../src/worker/services/ranking/offline/rank-offline.ts";
import { rankMoments } from "../src/worker/services/ranking/rank-moments.ts";
import { unitsOf } from "../src/worker/services/ranking/text/units.ts";
import type { Transcript } from "../src/worker/services/transcription/transcript.ts";
import { llmFromEnvironment } from "./llm-from-env.ts";
import { buildAsrCorpus } from "./quality/asr-corpus.ts";
import { bm25Windows, emotionWindows, randomWindows } from "./quality/baselines.ts";
import { scoreHighlights, scorePrompts, type PromptItem, type Ranker } from "./quality/evaluate.ts";
import { hashSeed } from "./quality/turns-to-transcript.ts";
import { buildMeetingCorpus, buildQmsumCorpus } from "./quality/prompt-corpus.ts";
import { buildRealFillerCorpus, buildTalkCorpus, type Split, type TalkItem } from "./quality/talk-corpus.ts";

const { values } = parseArgs({ options: { "dev-only": { type: "boolean" }, asr: { type: "boolean" } } });
const splits: Split[] = values["dev-only"] ? ["dev"] : ["dev", "test"];

const configFor = (o: { min: number; max: number; prompt: string | null }) => ({ ...defaultConfig(), clipDurationMin: o.min, clipDurationMax: o.max, customPrompt: o.prompt });
const offline: Ranker = (transcript, o) => rankOffline(transcript, configFor(o)).clips;
const random: Ranker = (transcript, o) => randomWindows(transcript, o.min, o.max, 5, hashSeed(`${transcript.duration}${o.prompt ?? ""}`));
const emotion: Ranker = (transcript) => emotionWindows(transcript, 30, 5);
const bm25: Ranker = (transcript, o) => bm25Windows(transcript, o.prompt ?? "", 3);
const llm = llmFromEnvironment("fast");
const withLlm: Ranker | null = llm ? async (transcript, o) => (await rankMoments(transcript, configFor(o), null, llm)).clips : null;

const log = (line: string) => console.error(line);
const result: Record<string, unknown> = {
	measuredAt: new Date().toISOString(),
	definitions: {
		recallAt5: "share of planted highlights that one of the ranker's five best clips overlaps with IoU >= 0.5 (clips 15-60 s)",
		boundaryErrorSeconds: "for matched highlights, mean of |start difference| and |end difference|",
		hitAt1: "the first clip holds the answer: at least half of it lies inside an annotated answer passage (clips 15-90 s, the seed's defaults)",
		splits: "dev: fitted and tuned on; test and QMSum heldout: never read while tuning",
	},
};

async function highlightSystems(items: TalkItem[]) {
	const systems: Record<string, unknown> = {
		clipforgeOffline: await scoreHighlights(items, offline),
		randomWindows: await scoreHighlights(items, random),
		emotionWindows: await scoreHighlights(items, emotion),
	};
	if (withLlm) systems.clipforgeLlm = await scoreHighlights(items, withLlm);
	return systems;
}

const highlights: Record<string, unknown> = {};
for (const split of splits) {
	for (const style of ["punctuated", "whisper", "plain"] as const) {
		log(`highlights: ${split}, ${style}`);
		highlights[`${split}/${style}`] = await highlightSystems(buildTalkCorpus(split, style));
	}
	const real = buildRealFillerCorpus(split, "whisper");
	if (real) {
		log(`highlights: ${split} planted into real meetings`);
		highlights[`${split}/real-meetings`] = await highlightSystems(real);
	} else highlights[`${split}/real-meetings`] = { skipped: "no local copy of QMSum (see tools/quality/qmsum.ts)" };
	if (values.asr) {
		log(`highlights: ${split} through flite + pocketsphinx`);
		highlights[`${split}/local-asr`] = await highlightSystems(await buildAsrCorpus(split, 3, 70, log));
	}
}
result.highlights = highlights;

async function promptSystems(items: PromptItem[]) {
	const systems: Record<string, unknown> = {
		clipforgeOffline: await scorePrompts(items, offline),
		bm25FixedWindows: await scorePrompts(items, bm25),
		randomWindows: await scorePrompts(items, (t, o) => randomWindows(t, o.min, o.max, 3, hashSeed(o.prompt ?? ""))),
	};
	if (withLlm) systems.clipforgeLlm = await scorePrompts(items, withLlm);
	return systems;
}

const prompts: Record<string, unknown> = {};
for (const split of splits) {
	log(`prompts: written meetings, ${split}`);
	prompts[`meetings-${split}`] = await promptSystems(buildMeetingCorpus(split));
	const half = split === "dev" ? "dev" : "heldout";
	const qmsum = buildQmsumCorpus(half);
	if (qmsum) {
		log(`prompts: QMSum train, ${half} half`);
		prompts[`qmsum-train-${half}`] = await promptSystems(qmsum);
	} else prompts[`qmsum-train-${half}`] = { skipped: "no local copy of QMSum (see tools/quality/qmsum.ts)" };
}
result.prompts = prompts;
result.speed = speed();
result.llm = llm ? llm.name : "none: set CLIPFORGE_LLM_URL (+ _KEY, _MODEL, _FAST_MODEL) to an OpenAI-compatible server to measure the LLM path";

mkdirSync("bench-results", { recursive: true });
writeFileSync("bench-results/quality.json", `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));

/** A 90-minute transcript (episodes of talk back to back), ranked with and without a prompt. */
function speed() {
	const episodes = buildTalkCorpus("dev", "punctuated");
	const segments: Transcript["segments"] = [];
	let offset = 0;
	for (let k = 0; offset < 90 * 60; k++) {
		const t = episodes[k % episodes.length]!.transcript;
		for (const s of t.segments) {
			if (offset + s.end > 90 * 60) break;
			segments.push({ ...s, start: s.start + offset, end: s.end + offset, words: s.words.map((w) => ({ ...w, start: w.start + offset, end: w.end + offset })) });
		}
		offset += t.duration;
	}
	const words = segments.flatMap((s) => s.words);
	const transcript: Transcript = { language: "en", duration: 90 * 60, text: words.map((w) => w.word).join(" "), segments, words };
	const time = (prompt: string | null) => {
		rankOffline(transcript, configFor({ min: 15, max: 90, prompt }));
		const started = performance.now();
		const runs = 3;
		for (let k = 0; k < runs; k++) rankOffline(transcript, configFor({ min: 15, max: 90, prompt }));
		return Math.round((performance.now() - started) / runs);
	};
	return { transcriptMinutes: 90, sentences: unitsOf(transcript).length, msWithoutPrompt: time(null), msWithPrompt: time("why did they change the plan for the budget?") };
}
