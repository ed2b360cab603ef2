import { openAiCompatibleLlm, type LlmClient } from "../src/worker/services/ranking/llm.ts";

/** An OpenAI-compatible LLM from CLIPFORGE_LLM_URL / CLIPFORGE_LLM_KEY / CLIPFORGE_LLM_MODEL, or null. */
export function llmFromEnvironment(): LlmClient | null {
	const url = process.env.CLIPFORGE_LLM_URL;
	return url ? openAiCompatibleLlm(url, process.env.CLIPFORGE_LLM_KEY, process.env.CLIPFORGE_LLM_MODEL ?? "gpt-4o-mini") : null;
}
