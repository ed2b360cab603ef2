/**
 * The LLM behind analysis, as one small interface the rankers and the chapters call: asked for JSON
 * against a schema, it answers raw text or objects, validated by the caller. The Worker implements
 * it (Workers AI through the AI binding, or any OpenAI-compatible chat-completions server, each call
 * retried on transient errors: src/worker/services/llm/); tests and tools pass fakes.
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
