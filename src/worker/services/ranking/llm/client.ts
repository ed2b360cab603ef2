/**
 * The LLMs behind analysis, as one small interface: Workers AI through the AI binding (production),
 * or any OpenAI-compatible chat-completions server (LLM_BASE_URL, e.g. Ollama's /v1, + LLM_API_KEY).
 * Both are asked for JSON against a schema; what comes back is raw text or objects, validated by the
 * caller. ClipBasic uses the fast model, ClipPro the strong one.
 */
export interface ChatMessage {
	role: "system" | "user" | "assistant";
	content: string;
}

export interface JsonSchema {
	name: string;
	schema: Record<string, unknown>;
}

export interface LlmClient {
	readonly name: string;
	/** Returns the model's answer: a parsed object when the provider parsed it, else its text. */
	complete(messages: ChatMessage[], schema: JsonSchema, options?: { maxTokens?: number }): Promise<unknown>;
}

export type AiBinding = { run(model: string, input: Record<string, unknown>): Promise<unknown> };

/** Workers AI JSON mode: `response_format: { type: "json_schema", json_schema }`, answer in `response`. */
export function workersAiLlm(ai: AiBinding, model: string): LlmClient {
	return {
		name: `workers-ai:${model}`,
		async complete(messages, schema, options) {
			const output = (await ai.run(model, {
				messages,
				response_format: { type: "json_schema", json_schema: schema.schema },
				max_tokens: options?.maxTokens ?? 2048,
				temperature: 0.2,
			})) as { response?: unknown } | undefined;
			return output?.response ?? output;
		},
	};
}

export function openAiCompatibleLlm(baseUrl: string, apiKey: string | undefined, model: string, fetchImpl: typeof fetch = fetch): LlmClient {
	return {
		name: `openai-compatible:${model}`,
		async complete(messages, schema, options) {
			const response = await fetchImpl(`${baseUrl.replace(/\/$/, "")}/chat/completions`, {
				method: "POST",
				headers: { "content-type": "application/json", ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
				body: JSON.stringify({
					model,
					messages,
					temperature: 0.2,
					max_tokens: options?.maxTokens ?? 2048,
					response_format: { type: "json_schema", json_schema: { name: schema.name, schema: schema.schema } },
				}),
				signal: AbortSignal.timeout(120_000),
			});
			if (!response.ok) throw new Error(`LLM endpoint answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
			const body = (await response.json()) as { choices?: { message?: { content?: string; refusal?: string | null } }[] };
			const message = body.choices?.[0]?.message;
			if (message?.refusal) throw new Error(`the model refused: ${message.refusal.slice(0, 160)}`);
			return message?.content ?? "";
		},
	};
}

/** Fast model for ClipBasic's one pass. */
export const DEFAULT_FAST_MODEL = "@cf/meta/llama-3.1-8b-instruct-fast";
/** Strong model for ClipPro's two passes. */
export const DEFAULT_STRONG_MODEL = "@cf/meta/llama-3.3-70b-instruct-fp8-fast";

export interface LlmSettings {
	AI?: AiBinding;
	LLM_BASE_URL?: string;
	LLM_API_KEY?: string;
	/** ClipPro's model. */
	LLM_MODEL?: string;
	/** ClipBasic's model. */
	LLM_FAST_MODEL?: string;
}

/** The configured LLM for a clip model, or null when there is none (then the offline ranker runs). */
export function createLlm(env: LlmSettings, strength: "fast" | "strong"): LlmClient | null {
	const strong = env.LLM_MODEL || (env.LLM_BASE_URL ? "" : DEFAULT_STRONG_MODEL);
	const model = strength === "strong" ? strong : env.LLM_FAST_MODEL || (env.LLM_BASE_URL ? strong : DEFAULT_FAST_MODEL);
	if (env.LLM_BASE_URL) return model ? openAiCompatibleLlm(env.LLM_BASE_URL, env.LLM_API_KEY, model) : null;
	if (env.AI) return workersAiLlm(env.AI, model);
	return null;
}
