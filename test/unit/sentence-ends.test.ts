/**
 * Sentence ends in talk with no punctuation and no pause: a greeting, a sign-off or a sponsor line
 * said in the same breath as the talk is a sentence of its own, so no clip has to carry it.
 */
import { describe, expect, it } from "vitest";
import { sentenceStarts } from "@clipforge/moments/text/sentence-ends";

const cut = (text: string) => {
	const words = text.split(" ");
	const starts = [0, ...sentenceStarts(words), words.length];
	return starts.slice(1).map((to, k) => words.slice(starts[k], to).join(" "));
};

describe("sentence ends in a run-on", () => {
	it("cuts a sponsor line off the story said after it", () => {
		const pieces = cut(
			"this episode is brought to you by our sponsor it sank on its first trip across the lake and he swam back laughing with the oars",
		);
		expect(pieces[0]).toBe("this episode is brought to you by our sponsor");
	});

	it("cuts a greeting off the sentence said before it", () => {
		const pieces = cut(
			"she looked at the contract and said there is no way we are signing this on a Friday good morning everybody how are you",
		);
		expect(pieces[0]).toBe("she looked at the contract and said there is no way we are signing this on a Friday");
	});
});
