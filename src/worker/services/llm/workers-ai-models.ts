/**
 * The Workers AI text models analysis may call, each with the request shape its input type
 * declares, and how a request and its answer look in either shape. The table is checked against
 * the catalogue `wrangler types` generates (workers-ai-catalogue.ts), so a model id that does not
 * exist, or whose input type declares no JSON-schema mode, fails `tsc`
 * (test/types/workers-ai-models.type-test.ts proves both). This file itself needs no Worker
 * types, so the tools can run the ranking in Node.
 */

/**
 * The JSON-mode models this project can call, each with its API shape (`workers-ai`: Workers
 * AI's own JSON mode, `json_schema` is the schema and the answer is in `response`;
 * `chat-completions`: OpenAI's shape, `json_schema: { name, schema, strict }`, answer in
 * `choices[0].message.content`). Checked against the catalogue in workers-ai-catalogue.ts. LLM_MODEL and LLM_FAST_MODEL must
 * name one of these when analysis runs on Workers AI. Not listed: the Responses-API models
 * (`@cf/openai/gpt-oss-*`), whose input is neither shape.
 */
export const JSON_MODE_MODELS = {
	"@cf/meta/llama-4-scout-17b-16e-instruct": "workers-ai",
	"@cf/meta/llama-3.3-70b-instruct-fp8-fast": "workers-ai",
	"@cf/qwen/qwen3-30b-a3b-fp8": "workers-ai",
	"@cf/qwen/qwen2.5-coder-32b-instruct": "workers-ai",
	"@cf/aisingapore/gemma-sea-lion-v4-27b-it": "workers-ai",
	"@cf/zai-org/glm-4.7-flash": "chat-completions",
	"@cf/google/gemma-4-26b-a4b-it": "chat-completions",
	"@cf/qwen/qwen3.8-27b": "chat-completions",
	"@cf/deepseek-ai/deepseek-v4-flash-0731": "chat-completions",
	"@cf/nvidia/nemotron-3-120b-a12b": "chat-completions",
	"@cf/moonshotai/kimi-k2.5": "chat-completions",
} as const;

export type SupportedJsonModel = keyof typeof JSON_MODE_MODELS;

/**
 * ClipBasic's model: Llama 4 Scout, a mixture of experts (17B active parameters of 109B) that
 * answers at the speed of a mid-size dense model, with Workers AI's own JSON mode declared in its
 * input type, a 131k-token context (a 15-minute chunk is ~4k tokens) and no reasoning phase to pay
 * for or wait on. $0.27 per million input tokens, $0.85 per million output (docs/deploy.md,
 * "Workers AI models and their cost per hour of video").
 */
export const DEFAULT_FAST_MODEL = "@cf/meta/llama-4-scout-17b-16e-instruct" satisfies SupportedJsonModel;
/** ClipPro's model: Llama 3.3 70B (fp8, fast), the strongest of the Workers AI JSON-mode models this was tuned on. */
export const DEFAULT_STRONG_MODEL = "@cf/meta/llama-3.3-70b-instruct-fp8-fast" satisfies SupportedJsonModel;

export function isSupportedJsonModel(model: string): model is SupportedJsonModel {
	return Object.hasOwn(JSON_MODE_MODELS, model);
}

export interface JsonModeMessage {
	role: "system" | "user" | "assistant";
	content: string;
}

export interface NamedSchema {
	name: string;
	schema: Record<string, unknown>;
}

/** Workers AI's own JSON mode (its type is checked against both defaults' input types). */
export function workersAiJsonInput(messages: JsonModeMessage[], schema: NamedSchema, maxTokens: number) {
	return {
		messages,
		response_format: { type: "json_schema" as const, json_schema: schema.schema },
		max_tokens: maxTokens,
		temperature: 0.2,
	};
}

/** Chat completions' JSON mode (its type is checked against the catalogue's ChatCompletionsInput). */
export function chatCompletionsJsonInput(messages: JsonModeMessage[], schema: NamedSchema, maxTokens: number) {
	return {
		messages,
		response_format: {
			type: "json_schema" as const,
			json_schema: { name: schema.name, schema: schema.schema, strict: true },
		},
		max_completion_tokens: maxTokens,
		temperature: 0.2,
	};
}

/** The request for one JSON-mode call, in the model's own shape. */
export function jsonModeInput(
	model: SupportedJsonModel,
	messages: JsonModeMessage[],
	schema: NamedSchema,
	maxTokens: number,
): Record<string, unknown> {
	return JSON_MODE_MODELS[model] === "workers-ai"
		? workersAiJsonInput(messages, schema, maxTokens)
		: chatCompletionsJsonInput(messages, schema, maxTokens);
}

/** The model's answer in either shape: an object when Workers AI parsed it, else its text. */
export function jsonModeAnswer(output: unknown): unknown {
	if (typeof output === "string") return output;
	if (!output || typeof output !== "object") return output;
	if ("response" in output) return output.response;
	const choices = (output as { choices?: { message?: { content?: unknown } }[] }).choices;
	if (Array.isArray(choices)) return choices[0]?.message?.content ?? "";
	return output;
}
