/**
 * Many LLM calls per video (one per transcript chunk, batch of windows or shortlisted window): one
 * that fails after its retries loses only its own part. What the others found is kept, the parts
 * nobody read are reported (the offline ranker fills them: rank-moments.ts), and only when every
 * call failed does the analysis fail, as "try again later" when all failures may pass.
 */
import { isTransientLlmError, LlmUnavailableError } from "./errors.ts";

export interface Asked<I, T> {
	answered: { item: I; value: T }[];
	failed: { item: I; error: unknown }[];
}

/** Asks for every item, `parallel` at a time (in batches), keeping successes and failures apart. */
export async function askEach<I, T>(
	items: readonly I[],
	parallel: number,
	ask: (item: I) => Promise<T>,
): Promise<Asked<I, T>> {
	const asked: Asked<I, T> = { answered: [], failed: [] };
	for (let k = 0; k < items.length; k += parallel) {
		const batch = items.slice(k, k + parallel);
		const settled = await Promise.allSettled(batch.map(ask));
		settled.forEach((outcome, n) => {
			if (outcome.status === "fulfilled") asked.answered.push({ item: batch[n]!, value: outcome.value });
			else asked.failed.push({ item: batch[n]!, error: outcome.reason });
		});
	}
	return asked;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 160);

/**
 * Throws when no call was answered: LlmUnavailableError when every failure may pass (the step is
 * worth retrying later), else the first lasting failure as it was.
 */
export function requireAnswers(asked: Asked<unknown, unknown>, what: string): void {
	if (asked.answered.length > 0 || asked.failed.length === 0) return;
	const lasting = asked.failed.find((f) => !isTransientLlmError(f.error));
	if (lasting) throw lasting.error;
	throw new LlmUnavailableError(`all ${asked.failed.length} ${what} failed: ${messageOf(asked.failed[0]!.error)}`);
}

/** "3 of 4 transcript parts answered (1 failed: 3040: Capacity …)", or null when none failed. */
export function shortfallOf(asked: Asked<unknown, unknown>, what: string): string | null {
	if (asked.failed.length === 0) return null;
	const total = asked.answered.length + asked.failed.length;
	return `${asked.answered.length} of ${total} ${what} answered (${asked.failed.length} failed: ${messageOf(asked.failed[0]!.error)})`;
}
