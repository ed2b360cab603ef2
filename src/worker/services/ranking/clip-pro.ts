/**
 * ClipPro: an LLM reads the timestamped transcript (in chunks for long videos) and proposes
 * moments with titles, hook titles, scores and reasons. Its answer is validated with zod; broken
 * JSON is repaired (code fences, truncation) and a schema-invalid answer gets one corrective retry.
 * Proposals are snapped to sentence boundaries, fitted to the duration range and time frame, and
 * de-overlapped. Any failure is thrown, so rankMoments can fall back to ClipBasic and record why.
 */
import { z } from "zod";
import { frameOf, type VideoConfig } from "../../domain/video-config";
import { sentencesOf, type Sentence, type Transcript } from "../transcription/transcript";
import { scoreSpans, type RankedClip } from "./clip-basic";
import type { AudioSignals } from "./features";
import type { ChatMessage, LlmClient } from "./llm";
import { selectNonOverlapping } from "./select";

const LlmMoment = z.object({
	start: z.number().nonnegative(),
	end: z.number().positive(),
	title: z.string().trim().min(1).max(120),
	hookTitle: z.string().trim().min(1).max(80),
	score: z.number().min(0).max(100),
	reason: z.string().trim().min(1).max(500),
});
type LlmMoment = z.infer<typeof LlmMoment>;
const LlmAnswer = z.object({ clips: z.array(LlmMoment).max(20) });
const ANSWER_SCHEMA = { name: "clip_moments", schema: z.toJSONSchema(LlmAnswer) as Record<string, unknown> };

/** Transcript seconds per LLM call: about 15 minutes keeps the prompt well inside context limits. */
export const CHUNK_SECONDS = 15 * 60;
const PARALLEL_CALLS = 4;
const MAX_CLIPS = 10;

export class ClipProError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "ClipProError";
	}
}

export async function rankClipPro(llm: LlmClient, transcript: Transcript, config: VideoConfig, signals: AudioSignals | null): Promise<RankedClip[]> {
	const frame = frameOf(config, transcript.duration);
	const sentences = sentencesOf(transcript).filter((s) => s.start >= frame.start - 0.01 && s.end <= frame.end + 0.01);
	if (sentences.length === 0) return [];
	const chunks = chunkSentences(sentences);
	const proposals: LlmMoment[] = [];
	for (let k = 0; k < chunks.length; k += PARALLEL_CALLS) {
		const answers = await Promise.all(chunks.slice(k, k + PARALLEL_CALLS).map((chunk) => askChunk(llm, chunk, config, chunks.length)));
		proposals.push(...answers.flat());
	}
	const snapped = proposals.flatMap((p) => {
		const span = snap(p, sentences, config);
		return span ? [{ ...p, ...span }] : [];
	});
	if (snapped.length === 0) throw new ClipProError("the model proposed no usable moment");
	// Keep the model's choice of moments; explain each with the same features ClipBasic uses.
	const explained = scoreSpans(transcript, config, signals, snapped);
	const clips: RankedClip[] = snapped.map((p, n) => ({
		...explained[n]!,
		score: Math.round(p.score),
		title: p.title,
		hookTitle: p.hookTitle,
		viralityReason: p.reason,
	}));
	return selectNonOverlapping(clips, MAX_CLIPS);
}

function chunkSentences(sentences: Sentence[]): Sentence[][] {
	const chunks: Sentence[][] = [];
	let current: Sentence[] = [];
	for (const sentence of sentences) {
		if (current.length > 0 && sentence.end - current[0]!.start > CHUNK_SECONDS) {
			chunks.push(current);
			current = [];
		}
		current.push(sentence);
	}
	if (current.length) chunks.push(current);
	return chunks;
}

function promptFor(chunk: Sentence[], config: VideoConfig, chunkCount: number): ChatMessage[] {
	const lines = chunk.map((s) => `[${s.start.toFixed(1)}-${s.end.toFixed(1)}] ${s.text}`).join("\n");
	const wanted = Math.max(1, Math.ceil(MAX_CLIPS / chunkCount));
	return [
		{
			role: "system",
			content: [
				"You pick the moments of a long video that make the best short, standalone clips for social media.",
				"A good clip opens with a strong hook in its first sentence, stays on one topic, and ends where the thought is complete.",
				`Each clip must last between ${config.clipDurationMin} and ${config.clipDurationMax} seconds and use the transcript's own timestamps (seconds).`,
				`Genre: ${config.genre}. Score each clip 0-100 for how likely it is to be watched to the end and shared; only propose clips scoring 50 or more.`,
				"title: a short descriptive title. hookTitle: at most 8 words shown on screen in the first seconds. reason: one sentence on why it works.",
				'Answer only JSON: {"clips": [{"start", "end", "title", "hookTitle", "score", "reason"}]}.',
			].join(" "),
		},
		{
			role: "user",
			content: `${config.customPrompt ? `What the creator wants: ${config.customPrompt}\n\n` : ""}Propose up to ${wanted} clips from this transcript:\n${lines}`,
		},
	];
}

async function askChunk(llm: LlmClient, chunk: Sentence[], config: VideoConfig, chunkCount: number): Promise<LlmMoment[]> {
	const messages = promptFor(chunk, config, chunkCount);
	const first = await llm.complete(messages, ANSWER_SCHEMA);
	const parsed = parseAnswer(first);
	if (parsed.ok) return parsed.clips;
	// One corrective retry: tell the model what was wrong with its answer.
	const retry = await llm.complete(
		[...messages, { role: "assistant", content: typeof first === "string" ? first.slice(0, 4000) : JSON.stringify(first).slice(0, 4000) }, { role: "user", content: `That answer was not valid (${parsed.error}). Answer again with only the JSON object.` }],
		ANSWER_SCHEMA,
	);
	const second = parseAnswer(retry);
	if (second.ok) return second.clips;
	throw new ClipProError(`the model's answer was not valid JSON for the schema (${second.error})`);
}

/**
 * The model's answer as valid moments. Accepts an object or text; strips code fences; repairs a
 * truncated answer by closing it after the last complete clip; drops individual invalid clips.
 */
export function parseAnswer(raw: unknown): { ok: true; clips: LlmMoment[] } | { ok: false; error: string } {
	let value: unknown = raw;
	if (typeof raw === "string") {
		const text = raw.replace(/^\s*```(?:json)?\s*/i, "").replace(/\s*```\s*$/, "").trim();
		value = tryJson(text) ?? repairTruncated(text);
		if (value === undefined) return { ok: false, error: "not JSON" };
	}
	const shape = z.object({ clips: z.array(z.unknown()) }).safeParse(value);
	if (!shape.success) return { ok: false, error: 'no "clips" array' };
	const clips = shape.data.clips.flatMap((c) => {
		const moment = LlmMoment.safeParse(c);
		return moment.success && moment.data.end > moment.data.start ? [moment.data] : [];
	});
	if (clips.length === 0 && shape.data.clips.length > 0) return { ok: false, error: "no clip matched the schema" };
	return { ok: true, clips };
}

function tryJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/** `{"clips": [{…}, {…}, {"sta` → `{"clips": [{…}, {…}]}`. */
function repairTruncated(text: string): unknown {
	const start = text.indexOf("{");
	if (start === -1) return undefined;
	const body = text.slice(start);
	for (let end = body.lastIndexOf("}"); end > 0; end = body.lastIndexOf("}", end - 1)) {
		const repaired = tryJson(`${body.slice(0, end + 1)}]}`) ?? tryJson(body.slice(0, end + 1));
		if (repaired !== undefined) return repaired;
	}
	return undefined;
}

/** Snaps a proposal to whole sentences and fits it to the duration range; null when impossible. */
function snap(moment: LlmMoment, sentences: Sentence[], config: VideoConfig): { start: number; end: number } | null {
	let i = sentences.findIndex((s) => s.end > moment.start + 0.05);
	if (i === -1) return null;
	let j = i;
	while (j + 1 < sentences.length && sentences[j + 1]!.start < moment.end - 0.05) j++;
	const span = () => sentences[j]!.end - sentences[i]!.start;
	while (span() > config.clipDurationMax && j > i) j--;
	while (span() < config.clipDurationMin && j + 1 < sentences.length && sentences[j + 1]!.end - sentences[i]!.start <= config.clipDurationMax) j++;
	while (span() < config.clipDurationMin && i > 0 && sentences[j]!.end - sentences[i - 1]!.start <= config.clipDurationMax) i--;
	if (span() > config.clipDurationMax) return null;
	return { start: sentences[i]!.start, end: sentences[j]!.end };
}
