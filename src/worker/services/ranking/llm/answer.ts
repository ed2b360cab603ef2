/**
 * What the LLM must answer, as zod schemas (validated here) and plain JSON schemas (sent with the
 * request for structured output: plain-schema.ts), and the repairs a real answer sometimes needs: code fences, an answer cut
 * off mid-array, single invalid items among good ones.
 */
import { z } from "zod";
import type { JsonSchema } from "./client";
import { plainJsonSchema } from "./plain-schema";

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

export type Parsed<T> = { ok: true; items: T[] } | { ok: false; error: string };

/**
 * The answer's items under `key`, each validated on its own (invalid ones dropped). Accepts an
 * object or text; strips code fences; repairs a truncated answer by closing it after its last
 * complete item.
 */
export function parseItems<T>(raw: unknown, key: string, item: z.ZodType<T>): Parsed<T> {
	let value: unknown = raw;
	if (typeof raw === "string") {
		const text = raw
			.replace(/^\s*```(?:json)?\s*/i, "")
			.replace(/\s*```\s*$/, "")
			.trim();
		value = tryJson(text) ?? repairTruncated(text);
		if (value === undefined) return { ok: false, error: "not JSON" };
	}
	const shape = z.object({ [key]: z.array(z.unknown()) }).safeParse(value);
	if (!shape.success) return { ok: false, error: `no "${key}" array` };
	const all = shape.data[key] as unknown[];
	const items = all.flatMap((entry) => {
		const parsed = item.safeParse(entry);
		return parsed.success ? [parsed.data] : [];
	});
	if (items.length === 0 && all.length > 0) return { ok: false, error: `no item of "${key}" matched the schema` };
	return { ok: true, items };
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
