/**
 * What the LLM must answer for the moments, as zod schemas (validated with llm/ask.ts `parseItems`)
 * and plain JSON schemas (sent with the request for structured output: llm/plain-schema.ts).
 */
import { z } from "zod";
import type { JsonSchema } from "../../llm/client.ts";
import { plainJsonSchema } from "../../llm/plain-schema.ts";

/**
 * One moment, as sentence ids of the numbered transcript (so every span is checkable). A hook the
 * clip lacks is sent as a plain string (the prompt asks for "" when absent) and taken as null.
 */
export const LlmMoment = z.object({
	firstSentence: z.number().int().nonnegative(),
	lastSentence: z.number().int().nonnegative(),
	title: z.string().trim().min(1).max(120),
	hookTitle: z.string().trim().min(1).max(80),
	score: z.number().min(0).max(100),
	reason: z.string().trim().min(1).max(400),
	hooks: z.object({ question: z.string().max(200).nullable(), statement: z.string().max(200).nullable() }),
	emotions: z.array(z.string().trim().min(1).max(30)).max(5),
	description: z.string().trim().min(1).max(400),
});
export type LlmMoment = z.infer<typeof LlmMoment>;
export const MomentsAnswer = z.object({ clips: z.array(LlmMoment).max(20) });

/** ClipPro's first pass: each window's promise, judged on three axes (relevance 0 when there is no prompt). */
export const WindowScore = z.object({
	window: z.number().int().nonnegative(),
	hook: z.number().min(0).max(10),
	completeness: z.number().min(0).max(10),
	payoff: z.number().min(0).max(10),
	relevance: z.number().min(0).max(10).nullable(),
});
export type WindowScore = z.infer<typeof WindowScore>;
export const WindowsAnswer = z.object({ windows: z.array(WindowScore).max(200) });

const jsonSchema = (name: string, schema: z.ZodType): JsonSchema => ({ name, schema: plainJsonSchema(schema) });
export const MOMENTS_SCHEMA = jsonSchema("clip_moments", MomentsAnswer);
export const WINDOWS_SCHEMA = jsonSchema("window_scores", WindowsAnswer);
