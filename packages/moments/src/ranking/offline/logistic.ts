/**
 * A logistic model over standardised inputs: what `tools/quality/train-ranker.ts` fits on the dev
 * corpora and writes to `moment-model.ts`. Kept tiny and transparent: every weight belongs to a
 * named feature, so a clip's reasons can be read off the model.
 */
export interface LogisticModel {
	features: readonly string[];
	mean: readonly number[];
	scale: readonly number[];
	weights: readonly number[];
	bias: number;
}

export function logit(model: LogisticModel, input: readonly number[]): number {
	let z = model.bias;
	for (let k = 0; k < model.weights.length; k++)
		z += (model.weights[k]! * (input[k]! - model.mean[k]!)) / model.scale[k]!;
	return z;
}

export const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** Each feature's contribution to the logit for this input (for explanations). */
export function contributions(model: LogisticModel, input: readonly number[]): number[] {
	return model.weights.map((w, k) => (w * (input[k]! - model.mean[k]!)) / model.scale[k]!);
}
