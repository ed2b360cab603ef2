/**
 * One structured question to the LLM and its answer read: the items under a key, each validated
 * with zod (invalid ones dropped), with the repairs a real answer sometimes needs (code fences, an
 * answer cut off mid-array) and one corrective retry telling the model what was wrong. The call
 * style the moments and the chapters share.
 */
import { z } from "zod";
import type { ChatMessage, JsonSchema, LlmClient } from "./client.ts";
import { LlmAnalysisError } from "./errors.ts";

/** Asks, validates each item, and retries once telling the model what was wrong. */
export async function askFor<T>(
	llm: LlmClient,
	messages: ChatMessage[],
	schema: JsonSchema,
	key: string,
	item: z.ZodType<T>,
	maxTokens: number,
): Promise<T[]> {
	const first = await llm.complete(messages, schema, { maxTokens });
	const parsed = parseItems(first, key, item);
	if (parsed.ok) return parsed.items;
	const previous = typeof first === "string" ? first : JSON.stringify(first);
	const retry = await llm.complete(
		[
			...messages,
			{ role: "assistant", content: previous.slice(0, 4000) },
			{
				role: "user",
				content: `That answer was not valid (${parsed.error}). Answer again with only the JSON object, following the schema.`,
			},
		],
		schema,
		{ maxTokens },
	);
	const second = parseItems(retry, key, item);
	if (second.ok) return second.items;
	throw new LlmAnalysisError(`the model's answer did not match the schema twice (${second.error})`);
}

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
