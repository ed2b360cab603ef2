/**
 * How an LLM call fails, and which failures are worth another try. Workers AI's errors arrive as
 * `Error`s whose message starts with its internal code (`3040: Capacity temporarily exceeded…`,
 * sometimes after `AiError: `): https://developers.cloudflare.com/workers-ai/platform/errors/.
 */

/** The model answered, but not with anything usable (after the corrective retry). */
export class LlmAnalysisError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "LlmAnalysisError";
	}
}

/** Every call failed for reasons that pass (capacity, timeouts): the step should be tried again later. */
export class LlmUnavailableError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "LlmUnavailableError";
	}
}

/** The configuration names a model that cannot work (outside the catalogue, or without JSON mode). */
export class LlmConfigError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "LlmConfigError";
	}
}

/**
 * Workers AI codes that pass with time: 3040 out of capacity (429), 3007 timeout and 3008 aborted
 * (408), 3046 request timeout (seen in the wild, not in the table), 3001 server error, and 3021,
 * the account's requests a minute for the model used up (429, "rate limiting: inference request
 * per min rate reached": not in the errors table either; cloudflare/ai issue 657, 2026-09).
 */
const TRANSIENT_CODES = new Set(["3001", "3007", "3008", "3021", "3040", "3046"]);
/** Workers AI's per-minute rate limit (see TRANSIENT_CODES). */
const RATE_LIMITED_CODE = "3021";

/** The leading Workers AI code of an error message (`AiError: 5007: No such model` → "5007"), or null. */
export function workersAiCode(message: string): string | null {
	return /^(?:\w*Error:\s*)*(\d{4}):/.exec(message.trim())?.[1] ?? null;
}

/**
 * Whether the call met a requests-a-minute limit (Workers AI's 3021, an OpenAI-compatible server's
 * 429): only the next minute helps, so its retry waits longer than a capacity error's (retry.ts).
 */
export function isRateLimited(error: unknown): boolean {
	if (!(error instanceof Error)) return false;
	return workersAiCode(error.message) === RATE_LIMITED_CODE || /LLM endpoint answered 429\b/.test(error.message);
}

/**
 * Whether one more try of the same call may succeed: Workers AI's capacity and timeout codes, an
 * OpenAI-compatible server's 429 or 5xx, a network drop or a timeout of our own. A refused model,
 * a schema it cannot meet or a bad request fails the same way every time.
 */
export function isTransientLlmError(error: unknown): boolean {
	if (!(error instanceof Error)) return false;
	if (error instanceof LlmAnalysisError || error instanceof LlmConfigError) return false;
	if (error.name === "TimeoutError") return true;
	const code = workersAiCode(error.message);
	if (code) return TRANSIENT_CODES.has(code);
	if (/LLM endpoint answered (429|5\d\d)\b/.test(error.message)) return true;
	return /capacity|temporarily|timed? ?out|network connection lost|overloaded/i.test(error.message);
}
