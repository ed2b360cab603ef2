import { describe, expect, it } from "vitest";
import { asWritten, writtenForm } from "@clipforge/moments/text";
import { clipText } from "@clipforge/moments/text";
import { writtenSegments } from "../../src/worker/services/transcription/written-segments";

describe("words as a person writes them (the local engine writes lower case)", () => {
	it("capitalises the words a dictionary knows only with a capital, and I", () => {
		expect(asWritten("ten years ago i worked at a bakery in chicago for walter")).toBe(
			"ten years ago I worked at a bakery in Chicago for Walter",
		);
		expect(asWritten("i'm moving to london on monday, i've heard nasa is hiring")).toBe(
			"I'm moving to London on Monday, I've heard NASA is hiring",
		);
	});

	it("leaves words that are also common words, and anything already written with capitals", () => {
		expect(asWritten("mark the bill in march, grace will amazon it")).toBe(
			"mark the bill in march, grace will amazon it",
		);
		expect(writtenForm("McDonald")).toBe("McDonald");
		expect(writtenForm("iPhone")).toBe("iPhone");
		expect(asWritten("Chicago and NYC")).toBe("Chicago and NYC");
	});
});

describe("the local engine's segments as captions and transcripts show them", () => {
	const heard = (text: string, start = 0) => ({
		start,
		end: start + text.split(" ").length * 0.4,
		text,
		words: text.split(" ").map((word, k) => ({ word, start: start + k * 0.4, end: start + k * 0.4 + 0.35 })),
	});

	it("opens each utterance with a capital and writes I and known names, timings untouched", () => {
		const [first, second] = writtenSegments([
			heard("ten years ago i worked nights at a bakery in chicago"),
			heard("walter handed me a coffee", 6),
		]);
		expect(first!.text).toBe("Ten years ago I worked nights at a bakery in Chicago");
		expect(first!.words.map((w) => w.word)).toEqual(first!.text.split(" "));
		expect(second!.text).toBe("Walter handed me a coffee");
		expect(first!.words.map((w) => [w.start, w.end])).toEqual(
			heard("x ".repeat(11).trim()).words.map((w) => [w.start, w.end]),
		);
	});

	it("leaves a segment that already has capitals (Whisper's) exactly as it came", () => {
		const whisper = heard("iPhone sales in march, said mark.");
		expect(writtenSegments([whisper])[0]).toBe(whisper);
		const cased = heard("So I told Walter no");
		expect(writtenSegments([cased])[0]).toBe(cased);
	});

	it("puts the stops the engine leaves out into a clip's text, also when an edit rebuilds it from corrected words", () => {
		const segments = writtenSegments([
			heard("ten years ago i worked nights at a bakery in chicago"),
			heard("walter handed me a coffee", 6),
		]);
		expect(clipText({ segments }, 0, 20)).toBe(
			"Ten years ago I worked nights at a bakery in Chicago. Walter handed me a coffee.",
		);
		// A trim that starts mid-sentence, with one word corrected (an edit's caption fix).
		expect(clipText({ segments }, 1.56, 20, (w) => (w.word === "coffee" ? "tea" : w.word))).toBe(
			"worked nights at a bakery in Chicago. Walter handed me a tea.",
		);
		// Whisper's punctuation is left as it came.
		expect(clipText({ segments: [heard("So I told Walter no. He laughed")] }, 0, 20)).toBe(
			"So I told Walter no. He laughed",
		);
	});
});
