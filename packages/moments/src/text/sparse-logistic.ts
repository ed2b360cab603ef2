/**
 * The shape of the sentence-end model (sentence-end-model.ts, written by `npm run
 * train:sentence-ends`): a logistic model over sparse named features, read by sentence-ends.ts. A
 * file of its own so the generated model and its reader do not import each other.
 */
export interface SparseLogistic {
	bias: number;
	/** The bar a gap's logit must clear to end a sentence (chosen on dev for F1). */
	threshold: number;
	weights: Readonly<Record<string, number>>;
	/** Words that carry a feature of their own; any other word is read by its part of speech only. */
	vocabulary: readonly string[];
}
