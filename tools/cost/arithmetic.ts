/**
 * bench:cost's arithmetic, apart from its inputs so it can be tested: a quantity's price, a
 * measured quantity fitted through runs of several lengths, an instance's busy span, a model's
 * tokens in dollars, and which cost stage a metered stage belongs to.
 */

/** Dollars for `quantity` units at `price.usd` per `perUnits` units. */
export const usd = (quantity: number, price: { usd: number }, perUnits: number) => (quantity / perUnits) * price.usd;

/**
 * A quantity measured per run, as a + b·minutes through the shortest and the longest run (one
 * run: proportional to the minutes). Never below 0.
 */
export function fit<R extends { minutes: number }>(runs: R[], of: (run: R) => number): (minutes: number) => number {
	if (runs.length === 0) throw new Error("fit needs at least one run");
	if (runs.length === 1) return (m) => Math.max(0, (of(runs[0]!) * m) / runs[0]!.minutes);
	const sorted = [...runs].sort((x, y) => x.minutes - y.minutes);
	const [a, b] = [sorted[0]!, sorted[sorted.length - 1]!];
	const slope = (of(b) - of(a)) / (b.minutes - a.minutes);
	const at0 = of(a) - slope * a.minutes;
	return (m) => Math.max(0, at0 + slope * m);
}

/** Seconds each instance ran steps, from its first step's start to its last one's end. */
export function instanceBusySeconds(steps: { from: number; to: number; instance?: string }[]): Map<string, number> {
	const spans = new Map<string, { from: number; to: number }>();
	for (const s of steps) {
		if (!s.instance) continue;
		const span = spans.get(s.instance) ?? { from: s.from, to: s.to };
		span.from = Math.min(span.from, s.from);
		span.to = Math.max(span.to, s.to);
		spans.set(s.instance, span);
	}
	return new Map([...spans].map(([name, span]) => [name, span.to - span.from]));
}

/** A model's price in neurons per million input and output tokens (Workers AI's pricing table). */
export interface TokenPrice {
	neuronsPerMillionInput: number;
	neuronsPerMillionOutput: number;
}

/** Neurons for a call's tokens, and its dollars at `usdPerThousandNeurons`. */
export function tokenCost(
	model: TokenPrice,
	inputTokens: number,
	outputTokens: number,
	usdPerThousandNeurons: number,
): { inputNeurons: number; outputNeurons: number; usd: number } {
	const inputNeurons = (inputTokens * model.neuronsPerMillionInput) / 1e6;
	const outputNeurons = (outputTokens * model.neuronsPerMillionOutput) / 1e6;
	return { inputNeurons, outputNeurons, usd: ((inputNeurons + outputNeurons) / 1000) * usdPerThousandNeurons };
}

export type Stage = "api" | "source" | "transcription" | "ranking" | "renders" | "other";

/** Which cost stage a metered stage (a workflow step's name, an internal route, "api") belongs to. */
export function stageOf(name: string): Stage {
	if (name === "api") return "api";
	if (
		/^(download source|upload source|compute signals|prepare |extract audio|load video|claim a processing slot)/.test(
			name,
		)
	)
		return "source";
	if (/^internal (sources|signals|audio)$/.test(name)) return "source";
	if (/^(transcribe chunk|merge transcript)/.test(name) || name === "internal transcripts") return "transcription";
	if (/^(find chapters|rank moments)/.test(name)) return "ranking";
	if (/^(render clip|finish|deliver |clean up )/.test(name) || /^internal (clips|backgrounds)/.test(name))
		return "renders";
	return "other";
}
