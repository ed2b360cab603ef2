import type { LogisticModel } from "@clipforge/moments/ranking/offline/logistic";
import { sigmoid } from "@clipforge/moments/ranking/offline/logistic";

/**
 * Fits by full-batch gradient descent with class-balanced weights and L2. Deterministic.
 * @example fitLogistic(["a", "b"], [[0, 1], [1, 0]], [0, 1])
 */
export function fitLogistic(
	features: readonly string[],
	rows: number[][],
	labels: number[],
	options: { l2?: number; epochs?: number; rate?: number } = {},
): LogisticModel {
	const { l2 = 1e-3, epochs = 600, rate = 0.5 } = options;
	const n = rows.length;
	const d = features.length;
	const mean = Array.from({ length: d }, (_, k) => rows.reduce((s, r) => s + r[k]!, 0) / n);
	const scale = Array.from(
		{ length: d },
		(_, k) => Math.sqrt(rows.reduce((s, r) => s + (r[k]! - mean[k]!) ** 2, 0) / n) + 1e-6,
	);
	const z = rows.map((r) => r.map((v, k) => (v - mean[k]!) / scale[k]!));
	const positives = labels.reduce((s, y) => s + y, 0);
	const positiveWeight = positives > 0 ? (n - positives) / positives : 1;
	const weights = new Array<number>(d).fill(0);
	let bias = 0;
	for (let epoch = 0; epoch < epochs; epoch++) {
		const grad = new Array<number>(d).fill(0);
		let gradBias = 0;
		for (let i = 0; i < n; i++) {
			let s = bias;
			for (let k = 0; k < d; k++) s += weights[k]! * z[i]![k]!;
			const g = (sigmoid(s) - labels[i]!) * (labels[i] === 1 ? positiveWeight : 1);
			for (let k = 0; k < d; k++) grad[k]! += g * z[i]![k]!;
			gradBias += g;
		}
		for (let k = 0; k < d; k++) weights[k]! -= rate * (grad[k]! / n + l2 * weights[k]!);
		bias -= (rate * gradBias) / n;
	}
	return { features: [...features], mean, scale, weights, bias };
}
