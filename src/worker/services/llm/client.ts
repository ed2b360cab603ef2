/**
 * The LLMs behind analysis, implementing `@clipforge/moments`' one small interface (`LlmClient`):
 * Workers AI through the AI binding (production), or any OpenAI-compatible chat-completions server
 * (LLM_BASE_URL, e.g. Ollama's /v1, + LLM_API_KEY). Both are asked for JSON against a schema; what
 * comes back is raw text or objects, validated by the caller. ClipBasic uses the fast model, ClipPro the strong one. Every call is retried on
 * transient errors (retry.ts); Workers AI model ids are checked against the generated catalogue
 * (workers-ai-models.ts).
 */
import { LlmConfigError, type LlmClient } from "@clipforge/moments/llm";
import { aiBindingOf } from "./ai-binding";
import { withRetries, type RetryOptions } from "./retry";
import {
	DEFAULT_FAST_MODEL,
	DEFAULT_STRONG_MODEL,
	isSupportedJsonModel,
	JSON_MODE_MODELS,
	jsonModeAnswer,
	jsonModeInput,
	type SupportedJsonModel,
} from "./workers-ai-models";

export { DEFAULT_FAST_MODEL, DEFAULT_STRONG_MODEL };

export type AiBinding = { run(model: string, input: Record<string, unknown>): Promise<unknown> };

/**
 * Workers AI JSON mode, in the model's own request shape (workers-ai-models.ts): Workers AI's
 * (`json_schema` is the schema, answer in `response`) or chat completions' (answer in `choices`).
 */
export function workersAiLlm(ai: AiBinding, model: SupportedJsonModel): LlmClient {
	return {
		name: `workers-ai:${model}`,
		async complete(messages, schema, options) {
			return jsonModeAnswer(
				await ai.run(model, jsonModeInput(model, messages, schema, options?.maxTokens ?? 2048)),
			);
		},
	};
}

export function openAiCompatibleLlm(
	baseUrl: string,
	apiKey: string | undefined,
	model: string,
	fetchImpl: typeof fetch = fetch,
): LlmClient {
	return {
		name: `openai-compatible:${model}`,
		async complete(messages, schema, options) {
			const response = await fetchImpl(`${baseUrl.replace(/\/$/, "")}/chat/completions`, {
				method: "POST",
				headers: {
					"content-type": "application/json",
					...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
				},
				body: JSON.stringify({
					model,
					messages,
					temperature: 0.2,
					max_tokens: options?.maxTokens ?? 2048,
					response_format: { type: "json_schema", json_schema: { name: schema.name, schema: schema.schema } },
				}),
				signal: AbortSignal.timeout(120_000),
			});
			if (!response.ok)
				throw new Error(`LLM endpoint answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
			const body = (await response.json()) as {
				choices?: { message?: { content?: string; refusal?: string | null } }[];
			};
			const message = body.choices?.[0]?.message;
			if (message?.refusal) throw new Error(`the model refused: ${message.refusal.slice(0, 160)}`);
			return message?.content ?? "";
		},
	};
}

export interface LlmSettings {
	AI?: AiBinding;
	/** A local stack's stand-in of the binding (services/llm/ai-binding.ts). */
	AI_URL?: string;
	/** Seconds one Workers AI call may take (120). */
	AI_TIMEOUT_SECONDS?: string;
	LLM_BASE_URL?: string;
	LLM_API_KEY?: string;
	/** ClipPro's model. */
	LLM_MODEL?: string;
	/** ClipBasic's model. */
	LLM_FAST_MODEL?: string;
	/** Pauses before one call's retries on capacity or timeout errors, in ms, comma-separated (default 1000,4000,11000). */
	LLM_RETRY_DELAYS_MS?: string;
}

/**
 * The configured LLM for a clip model (its calls retried on transient errors), or null when there
 * is none (then the offline ranker runs). A Workers AI model outside the supported JSON-mode
 * models gives a client whose every call fails saying so: the video is ranked offline with that
 * reason, and `npm run smoke` reports it.
 */
export function createLlm(
	env: LlmSettings,
	strength: "fast" | "strong",
	retry: RetryOptions = { delaysMs: retryDelaysOf(env) },
): LlmClient | null {
	const strong = env.LLM_MODEL || (env.LLM_BASE_URL ? "" : DEFAULT_STRONG_MODEL);
	const model =
		strength === "strong" ? strong : env.LLM_FAST_MODEL || (env.LLM_BASE_URL ? strong : DEFAULT_FAST_MODEL);
	if (env.LLM_BASE_URL)
		return model ? withRetries(openAiCompatibleLlm(env.LLM_BASE_URL, env.LLM_API_KEY, model), retry) : null;
	const ai = aiBindingOf(env);
	if (!ai) return null;
	if (!isSupportedJsonModel(model))
		return unusableModel(strength === "strong" ? "LLM_MODEL" : "LLM_FAST_MODEL", model);
	return withRetries(workersAiLlm(ai, model), retry);
}

/** LLM_RETRY_DELAYS_MS as numbers; undefined (the defaults) when unset or unreadable. */
function retryDelaysOf(env: LlmSettings): number[] | undefined {
	const delays = env.LLM_RETRY_DELAYS_MS?.split(",").map((d) => Number(d.trim()));
	return delays && delays.length > 0 && delays.every((d) => Number.isFinite(d) && d >= 0) ? delays : undefined;
}

/** The Workers AI model ids LLM_MODEL and LLM_FAST_MODEL may name. */
export const SUPPORTED_WORKERS_AI_MODELS = Object.keys(JSON_MODE_MODELS) as SupportedJsonModel[];

function unusableModel(variable: string, model: string): LlmClient {
	const why = `${variable} = "${model}" is not a Workers AI model with JSON mode in this build's catalogue (worker-configuration.d.ts); use one of ${SUPPORTED_WORKERS_AI_MODELS.join(", ")}`;
	return {
		name: `workers-ai:${model}`,
		complete: () => Promise.reject(new LlmConfigError(why)),
	};
}
