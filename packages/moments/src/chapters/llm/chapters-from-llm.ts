/**
 * Chapters written by the configured LLM, in the ranker's call style: JSON mode with a schema, each
 * answer validated (one corrective retry), the transcript read in numbered sentences in parts of
 * about 15 minutes (four at a time), so every chapter start is a sentence the model saw. A last
 * call writes the whole video's summary from the chapters. The starts are then held to YouTube's
 * rules like the offline ones (@clipforge/domain chapters.ts).
 */
import { languageRule } from "../../llm/language.ts";
import { z } from "zod";
import { chapterSpans, type VideoChapters } from "@clipforge/domain";
import { askFor } from "../../llm/ask.ts";
import type { LlmClient } from "../../llm/client.ts";
import { LlmAnalysisError } from "../../llm/errors.ts";
import { askEach, requireAnswers } from "../../llm/partial.ts";
import { plainJsonSchema } from "../../llm/plain-schema.ts";
import type { ChapterUnit as Unit } from "../offline/chapter-units.ts";

const CHUNK_SECONDS = 15 * 60;
const PARALLEL_CALLS = 4;

export const LlmChapter = z.object({
	firstSentence: z.number().int().nonnegative(),
	title: z.string().trim().min(1).max(80),
	summary: z.string().trim().min(1).max(400),
});
export type LlmChapter = z.infer<typeof LlmChapter>;
export const LlmSummary = z.object({ text: z.string().trim().min(1).max(1200) });

const CHAPTERS_SCHEMA = {
	name: "video_chapters",
	schema: plainJsonSchema(z.object({ chapters: z.array(LlmChapter).max(30) })),
};
const SUMMARY_SCHEMA = {
	name: "video_summary",
	schema: plainJsonSchema(z.object({ summary: z.array(LlmSummary).max(1) })),
};

const RULES = `You divide a video's transcript into chapters for YouTube, as a careful editor would.
A chapter is one topic of the talk, usually several minutes long; a new chapter starts where the speakers turn to a new subject.
Each chapter: firstSentence (the number of the sentence it starts with), a title of 2 to 6 words naming its topic (no numbering, no emoji, no quotation marks), and a one-sentence summary of what is said in it.
Answer with JSON only, following the schema.`;

export async function chaptersWithLlm(
	llm: LlmClient,
	units: Unit[],
	duration: number,
	language = "en",
): Promise<VideoChapters | null> {
	const proposed = await proposedChapters(llm, units, duration, language);
	const byStart = new Map<number, LlmChapter>();
	for (const c of proposed) byStart.set(c.firstSentence === 0 ? 0 : units[c.firstSentence]!.start, c);
	const spans = chapterSpans(
		[...byStart.keys()].filter((s) => s > 0),
		duration,
	);
	if (!spans) return null;
	// Each span keeps the text of the proposal it starts with (the first span: the earliest proposal).
	const starts = [...byStart.keys()].sort((a, b) => a - b);
	const chapters = spans.map((span, i) => {
		const own = i === 0 ? byStart.get(starts[0]!)! : byStart.get(nearest(starts, span.start))!;
		return { ...span, title: own.title, summary: own.summary };
	});
	return { chapters, summary: await videoSummary(llm, chapters, language), madeBy: "llm", note: null };
}

/** The chapters the model proposes, part by part of the transcript, in order, one per first sentence. */
async function proposedChapters(
	llm: LlmClient,
	units: Unit[],
	duration: number,
	language: string,
): Promise<LlmChapter[]> {
	const parts = partsOf(units, CHUNK_SECONDS);
	const asked = await askEach(parts, PARALLEL_CALLS, ([from, to]) =>
		askFor(
			llm,
			[
				{ role: "system", content: `${RULES}\n${languageRule(language, "every title and summary")}` },
				{
					role: "user",
					content: `Sentences S${from}-S${to} of a ${Math.round(duration / 60)}-minute video (each with its start in seconds). List the chapters that start in them, in order${from === 0 ? "; the first starts at S0" : ""}:\n\n${numbered(units, from, to)}`,
				},
			],
			CHAPTERS_SCHEMA,
			"chapters",
			LlmChapter,
			1500,
		).then((chapters) => chapters.filter((c) => c.firstSentence >= from && c.firstSentence <= to)),
	);
	requireAnswers(asked, "transcript parts");
	if (asked.failed.length > 0)
		throw new LlmAnalysisError(`${asked.failed.length} transcript parts were not answered`);
	return asked.answered
		.flatMap((a) => a.value)
		.sort((a, b) => a.firstSentence - b.firstSentence)
		.filter((c, i, all) => i === 0 || c.firstSentence !== all[i - 1]!.firstSentence);
}

/** Two to four sentences on the whole video, from its chapters' titles and summaries. */
async function videoSummary(
	llm: LlmClient,
	chapters: { title: string; summary: string }[],
	language: string,
): Promise<string> {
	const summary = await askFor(
		llm,
		[
			{
				role: "system",
				content: `You write the summary of a video for its YouTube description: two to four plain sentences on what the whole video covers, in the order it covers it, without hashtags or emoji. ${languageRule(language, "the summary")} Answer with JSON only: {"summary": [{"text": "…"}]}.`,
			},
			{ role: "user", content: chapters.map((c) => `${c.title}: ${c.summary}`).join("\n") },
		],
		SUMMARY_SCHEMA,
		"summary",
		LlmSummary,
		600,
	);
	if (!summary[0]) throw new LlmAnalysisError("the model wrote no summary");
	return summary[0].text;
}

function nearest(values: number[], target: number): number {
	return values.reduce((best, v) => (Math.abs(v - target) < Math.abs(best - target) ? v : best), values[0]!);
}

/** Sentence ranges of about `seconds` each. */
function partsOf(units: Unit[], seconds: number): [number, number][] {
	const parts: [number, number][] = [];
	let first = 0;
	for (let k = 1; k < units.length; k++) {
		if (units[k]!.end - units[first]!.start > seconds) {
			parts.push([first, k - 1]);
			first = k;
		}
	}
	parts.push([first, units.length - 1]);
	return parts;
}

/** "S12 [73.4] text" per sentence. */
function numbered(units: Unit[], from: number, to: number): string {
	const lines: string[] = [];
	for (let k = from; k <= to; k++) lines.push(`S${k} [${units[k]!.start.toFixed(1)}] ${units[k]!.text}`);
	return lines.join("\n");
}
