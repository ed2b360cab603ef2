/**
 * Workers AI as the Worker calls it: `run(model, input)`, on the AI binding in production. A local
 * stack has no binding (it needs a Cloudflare login); there AI_URL may name an HTTP stand-in that
 * answers the same calls the same way (POST `<AI_URL>/run/<model>` with the input as JSON; an
 * error as `{ errors: [{ code, message }] }`, thrown as the binding throws it: `3040: Capacity
 * temporarily exceeded…`), as RENDER_URL stands in for the render Container. The chaos soak's
 * stand-in (tools/soak/ai-stand-in.ts) transcribes through the render tier and fails like Workers
 * AI does.
 *
 * Every call has a deadline (AI_TIMEOUT_SECONDS, 120 s by default): a call that never answers is a
 * TimeoutError, which the LLM client and the transcription step retry, instead of holding its
 * workflow step until the step's own timeout (30 minutes for a transcription).
 */

export interface AiRunner {
	run(model: string, input: Record<string, unknown>): Promise<unknown>;
}

export interface AiVars {
	/** The binding (Workers AI's `Ai`, or a test's stub of its `run`). */
	AI?: object;
	AI_URL?: string;
	AI_TIMEOUT_SECONDS?: string;
}

/** How long one Workers AI call may take before it is given up and tried again. */
export const DEFAULT_AI_TIMEOUT_SECONDS = 120;

/** The binding, else the stand-in at AI_URL, each call with its deadline; undefined when there is neither. */
export function aiBindingOf(env: AiVars): AiRunner | undefined {
	const binding = env.AI ? (env.AI as AiRunner) : env.AI_URL ? httpAi(env.AI_URL) : undefined;
	if (!binding) return undefined;
	const seconds = Number(env.AI_TIMEOUT_SECONDS) || DEFAULT_AI_TIMEOUT_SECONDS;
	return { run: (model, input) => withDeadline(binding.run(model, input), seconds) };
}

/** `call`, or a TimeoutError once `seconds` have passed without its answer. */
export function withDeadline<T>(call: Promise<T>, seconds: number): Promise<T> {
	let timer: ReturnType<typeof setTimeout> | undefined;
	const deadline = new Promise<never>((_, reject) => {
		timer = setTimeout(() => {
			const error = new Error(`Workers AI did not answer within ${seconds} s (timed out)`);
			error.name = "TimeoutError";
			reject(error);
		}, seconds * 1000);
	});
	return Promise.race([call, deadline]).finally(() => {
		if (timer !== undefined) clearTimeout(timer);
	});
}

function httpAi(baseUrl: string): AiRunner {
	return {
		async run(model, input) {
			const response = await fetch(`${baseUrl.replace(/\/$/, "")}/run/${encodeURIComponent(model)}`, {
				method: "POST",
				headers: { "content-type": "application/json" },
				body: JSON.stringify(input),
			});
			const body = (await response.json().catch(() => null)) as {
				result?: unknown;
				errors?: { code: number; message: string }[];
			} | null;
			if (!response.ok || !body || !("result" in body)) {
				const first = body?.errors?.[0];
				throw new Error(first ? `${first.code}: ${first.message}` : `AI stand-in answered ${response.status}`);
			}
			return body.result;
		},
	};
}
