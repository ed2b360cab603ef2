/**
 * `npm run rank -- <transcript.json> [--config config.json] [--signals signals.json] [--model ClipBasic|ClipPro]`
 *
 * Ranks a transcript (the JSON of GET /api/videos/:id/transcript) with the same code the workflow
 * runs, and prints the chosen clips as JSON: how ranking is judged apart from speech recognition.
 * With CLIPFORGE_LLM_URL (+ _KEY, _MODEL, _FAST_MODEL) pointing at an OpenAI-compatible server the
 * LLM analysis runs (ClipBasic: fast model, one pass; ClipPro: strong model, two passes); without
 * it, the offline ranker.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { z } from "zod";
import { AudioSignals, Segment } from "@clipforge/contract";
import { CLIP_MODELS, VideoConfigInput } from "../src/worker/domain/video-config.ts";
import { llmFromEnvironment } from "./llm-from-env.ts";
import { rankMoments } from "@clipforge/moments";

const USAGE =
	"usage: npm run rank -- <transcript.json> [--config config.json] [--signals signals.json] [--model ClipBasic|ClipPro]";
/** A clip's fields printed after its span, in this order. */
const SHOWN = [
	"score",
	"title",
	"hookTitle",
	"viralityReason",
	"hooks",
	"emotions",
	"description",
	"scoreBreakdown",
	"transcript",
] as const;
const TranscriptFile = z.object({
	language: z.string().default("en"),
	duration: z.number().positive(),
	segments: z.array(Segment),
});

const { positionals, values } = parseArgs({
	allowPositionals: true,
	options: { config: { type: "string" }, signals: { type: "string" }, model: { type: "string" } },
});
if (positionals.length !== 1) fail(USAGE);

const readJson = (path: string) => {
	try {
		return JSON.parse(readFileSync(path, "utf8")) as unknown;
	} catch (error) {
		return fail(`cannot read ${path}: ${(error as Error).message}`);
	}
};
const parsed = TranscriptFile.safeParse(readJson(positionals[0]!));
if (!parsed.success) fail(`${positionals[0]} is not a transcript: ${parsed.error.message}`);
const segments = parsed.data.segments;
const transcript = {
	...parsed.data,
	text: segments.map((s) => s.text).join(" "),
	words: segments.flatMap((s) => s.words),
};

const configInput = {
	...(values.config ? (readJson(values.config) as object) : {}),
	...(values.model ? { clipModel: values.model } : {}),
};
if (values.model && !(CLIP_MODELS as readonly string[]).includes(values.model))
	fail(`--model must be one of ${CLIP_MODELS.join(", ")}`);
const config = VideoConfigInput.safeParse(configInput);
if (!config.success) fail(`invalid config: ${config.error.message}`);
const signals = values.signals ? AudioSignals.parse(readJson(values.signals)) : null;

const outcome = await rankMoments(
	transcript,
	config.data,
	signals,
	llmFromEnvironment(config.data.clipModel === "ClipPro" ? "strong" : "fast"),
);
console.log(
	JSON.stringify(
		{
			rankedBy: outcome.rankedBy,
			note: outcome.note,
			clips: outcome.clips.map((clip) => ({
				start: clip.start,
				end: clip.end,
				duration: Math.round((clip.end - clip.start) * 100) / 100,
				...Object.fromEntries(SHOWN.map((field) => [field, clip[field]])),
			})),
		},
		null,
		2,
	),
);

function fail(message: string): never {
	console.error(message);
	process.exit(2);
}
