/**
 * ClipBasic with an LLM: the fast model reads the transcript once, in chunks of about 15 minutes
 * (four at a time), and proposes moments with their words; spans are checked and fitted to real
 * clips, then the best non-overlapping ones are kept. A chunk whose call fails (after its retries)
 * is reported as missed; the others' clips are kept.
 */
import { MAX_CLIPS } from "../offline/rank-offline.ts";
import type { TalkAnalysis } from "../offline/talk-analysis.ts";
import { overlaps } from "../offline/passages.ts";
import type { RankedClip } from "../ranked-clip.ts";
import { LlmMoment, MOMENTS_SCHEMA } from "./answer.ts";
import type { LlmClient } from "../../llm/client.ts";
import { askFor } from "../../llm/ask.ts";
import { LlmAnalysisError } from "../../llm/errors.ts";
import { clipFromMoment, clipRules, fitSpan, numberedLines, promptRules, sentenceChunks } from "./moments-from-llm.ts";
import { askEach, requireAnswers, shortfallOf } from "../../llm/partial.ts";
import type { LlmRanking } from "./llm-ranking.ts";

const CHUNK_SECONDS = 15 * 60;
const PARALLEL_CALLS = 4;

export async function rankWithFastLlm(llm: LlmClient, talk: TalkAnalysis, genre: string): Promise<LlmRanking> {
	const chunks = sentenceChunks(talk, CHUNK_SECONDS);
	const wanted = Math.max(2, Math.ceil((MAX_CLIPS + 2) / chunks.length));
	const asked = await askEach(chunks, PARALLEL_CALLS, ([from, to]) =>
		askFor(
			llm,
			[
				{ role: "system", content: clipRules(talk, genre) + promptRules(talk.promptText) },
				{
					role: "user",
					content: `Propose up to ${wanted} clips from sentences S${from}-S${to}, as firstSentence and lastSentence numbers:\n\n${numberedLines(talk, from, to)}`,
				},
			],
			MOMENTS_SCHEMA,
			"clips",
			LlmMoment,
			1800,
		).then((moments) => moments.filter((m) => m.firstSentence >= from && m.lastSentence <= to)),
	);
	requireAnswers(asked, "transcript parts");
	const clips: RankedClip[] = [];
	for (const moment of asked.answered.flatMap((a) => a.value)) {
		const span = fitSpan(talk, moment.firstSentence, moment.lastSentence);
		if (span) clips.push(clipFromMoment(talk, span, moment, null));
	}
	if (clips.length === 0 && !talk.prompt && asked.failed.length === 0)
		throw new LlmAnalysisError("the model proposed no usable moment");
	const kept: RankedClip[] = [];
	for (const clip of clips.sort((a, b) => b.score - a.score || a.start - b.start)) {
		if (kept.length < MAX_CLIPS && !kept.some((k) => overlaps(k, clip))) kept.push(clip);
	}
	const missed = asked.failed.map(({ item: [from, to] }) => ({
		start: talk.units[from]!.start,
		end: talk.units[to]!.end,
	}));
	return { clips: kept, missed, shortfall: shortfallOf(asked, "transcript parts") };
}
