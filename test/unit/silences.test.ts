/** Remove silences, the Worker's half: which pauses of a clip's transcript are cut (domain/silences.ts). */
import { describe, expect, it } from "vitest";
import { pausesToCut, SILENCE_PADDING_SECONDS } from "../../src/worker/domain/silences";

const w = (word: string, start: number, end: number) => ({ word, start, end });

describe("pausesToCut", () => {
	it("cuts every gap between words of at least the threshold, less the padding each side", () => {
		const words = [w("a", 0, 1), w("b", 1.3, 2), w("c", 3, 3.5), w("d", 5.5, 6)];
		expect(pausesToCut(words, 0.6)).toEqual([
			{ start: 2 + SILENCE_PADDING_SECONDS, end: 3 - SILENCE_PADDING_SECONDS },
			{ start: 3.62, end: 5.38 },
		]);
		expect(pausesToCut(words, 1.5)).toEqual([{ start: 3.62, end: 5.38 }]);
	});

	it("never cuts before the first word or after the last, inside overlapping words, or with no room left after padding", () => {
		expect(pausesToCut([w("a", 4, 5)], 0.3)).toEqual([]);
		// "b" overlaps "a" and ends before it: the gap counts from the later end.
		expect(pausesToCut([w("a", 0, 3), w("b", 1, 2), w("c", 3.5, 4)], 0.3)).toEqual([{ start: 3.12, end: 3.38 }]);
		expect(pausesToCut([w("a", 0, 1), w("b", 1.2, 2)], 0.2, 0.12)).toEqual([]);
		// Unsorted input is read in time order.
		expect(pausesToCut([w("b", 3, 4), w("a", 0, 1)], 0.6)).toEqual([{ start: 1.12, end: 2.88 }]);
	});
});
