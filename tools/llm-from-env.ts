import { createLlm } from "../src/worker/services/llm/client.ts";
import type { LlmClient } from "@clipforge/moments/llm";

/**
 * An OpenAI-compatible LLM from CLIPFORGE_LLM_URL / CLIPFORGE_LLM_KEY / CLIPFORGE_LLM_MODEL (ClipPro's)
 * / CLIPFORGE_LLM_FAST_MODEL (ClipBasic's, defaults to the other), or null.
 */
export function llmFromEnvironment(strength: "fast" | "strong"): LlmClient | null {
	const url = process.env.CLIPFORGE_LLM_URL;
	if (!url) return null;
	return createLlm(
		{
			LLM_BASE_URL: url,
			LLM_API_KEY: process.env.CLIPFORGE_LLM_KEY,
			LLM_MODEL: process.env.CLIPFORGE_LLM_MODEL ?? "gpt-4o-mini",
			LLM_FAST_MODEL: process.env.CLIPFORGE_LLM_FAST_MODEL,
		},
		strength,
	);
}
