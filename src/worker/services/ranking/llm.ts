/**
 * The LLM behind ClipPro, as one small interface: Workers AI through the AI binding (production),
 * or any OpenAI-compatible chat-completions endpoint (LLM_BASE_URL + LLM_API_KEY). Both are asked
 * for JSON against a schema; what comes back is raw text/objects, validated by the caller.
 */
export interface ChatMessage {
	role: "system" | "user" | "assistant";
	content: string;
}

export interface LlmClient {
	readonly name: string;
	/** Returns the model's answer: a parsed object when the provider parsed it, else its text. */
	complete(messages: ChatMessage[], schema: { name: string; schema: Record<string, unknown> }): Promise<unknown>;
}

/** Workers AI JSON mode (`response_format: json_schema`); see shared notes WORKERS-AI.md. */
export function workersAiLlm(ai: { run(model: string, input: Record<string, unknown>): Promise<unknown> }, model: string): LlmClient {
	return {
		name: `workers-ai:${model}`,
		async complete(messages, schema) {
			const output = (await ai.run(model, { messages, response_format: { type: "json_schema", json_schema: schema.schema }, max_tokens: 2048, temperature: 0.2 })) as
				| { response?: unknown }
				| undefined;
			return output?.response ?? output;
		},
	};
}

export function openAiCompatibleLlm(baseUrl: string, apiKey: string | undefined, model: string, fetchImpl: typeof fetch = fetch): LlmClient {
	return {
		name: `openai-compatible:${model}`,
		async complete(messages, schema) {
			const response = await fetchImpl(`${baseUrl.replace(/\/$/, "")}/chat/completions`, {
				method: "POST",
				headers: { "content-type": "application/json", ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
				body: JSON.stringify({ model, messages, temperature: 0.2, response_format: { type: "json_schema", json_schema: { name: schema.name, schema: schema.schema } } }),
				signal: AbortSignal.timeout(120_000),
			});
			if (!response.ok) throw new Error(`LLM endpoint answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
			const body = (await response.json()) as { choices?: { message?: { content?: string } }[] };
			return body.choices?.[0]?.message?.content ?? "";
		},
	};
}

export const DEFAULT_LLM_MODEL = "@cf/meta/llama-3.3-70b-instruct-fp8-fast";

/** The configured LLM, or null when there is none (then ClipPro falls back to ClipBasic). */
export function createLlm(env: { AI?: { run(model: string, input: Record<string, unknown>): Promise<unknown> }; LLM_BASE_URL?: string; LLM_API_KEY?: string; LLM_MODEL?: string }): LlmClient | null {
	if (env.LLM_BASE_URL) return openAiCompatibleLlm(env.LLM_BASE_URL, env.LLM_API_KEY, env.LLM_MODEL || "gpt-4o-mini");
	if (env.AI) return workersAiLlm(env.AI, env.LLM_MODEL || DEFAULT_LLM_MODEL);
	return null;
}
