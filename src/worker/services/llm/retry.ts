/**
 * One LLM call tried again on transient failures (capacity, timeouts, the model's requests a
 * minute), with growing, jittered pauses, so that one busy moment of the model costs seconds
 * instead of the whole analysis.
 */
import { isRateLimited, isTransientLlmError, type LlmClient } from "@clipforge/moments/llm";

/** Pauses before the 2nd, 3rd and 4th attempts (each ±25 %): about 16 s in all at worst. */
export const LLM_RETRY_DELAYS_MS = [1_000, 4_000, 11_000] as const;
/**
 * After a requests-a-minute refusal (Workers AI 3021) a pause is at least this long: the three
 * retries then span a minute, so the account's next minute comes before the call gives up
 * (16 s of capacity pauses would all fall in the same minute).
 */
export const RATE_LIMIT_PAUSE_MS = 20_000;

export interface RetryOptions {
	delaysMs?: readonly number[];
	/** The shortest pause after a rate-limit refusal (RATE_LIMIT_PAUSE_MS). */
	rateLimitPauseMs?: number;
	sleep?: (ms: number) => Promise<void>;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * `llm` whose calls are retried on transient errors; the last error is thrown when they run out.
 * @example withRetries(workersAiLlm(env.AI, model)).complete(messages, schema)
 */
export function withRetries(llm: LlmClient, options: RetryOptions = {}): LlmClient {
	const delays = options.delaysMs ?? LLM_RETRY_DELAYS_MS;
	const rateLimitPause = options.rateLimitPauseMs ?? RATE_LIMIT_PAUSE_MS;
	const sleep = options.sleep ?? pause;
	return {
		name: llm.name,
		async complete(messages, schema, callOptions) {
			for (let attempt = 0; ; attempt++) {
				try {
					return await llm.complete(messages, schema, callOptions);
				} catch (error) {
					if (attempt >= delays.length || !isTransientLlmError(error)) throw error;
					const delay = delays[attempt]! * (0.75 + Math.random() * 0.5);
					await sleep(isRateLimited(error) ? Math.max(delay, rateLimitPause) : delay);
				}
			}
		},
	};
}
