/**
 * Captions a user supplies, or a source's own subtitles, read into a transcript: SRT and WebVTT as
 * people and sites write them, words timed by their own script, scripts without spaces cut into
 * words, rolling captions said once.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	CaptionsError,
	joinWords,
	parseCaptions,
	transcriptFromCues,
	weightOf,
	wordsOf,
} from "@clipforge/moments/text";

describe("reading SRT and WebVTT", () => {
	it("reads SRT with numbers, commas in times, CRLF, a BOM, tags and entities", () => {
		const srt =
			"\uFEFF1\r\n00:00:01,000 --> 00:00:03,500\r\n<i>Hello</i> there &amp; welcome\r\n\r\n2\r\n00:00:04,000 --> 00:00:06,000\r\n[Music]\r\nSecond line\r\n";
		expect(parseCaptions(srt)).toEqual([
			{ start: 1, end: 3.5, text: "Hello there & welcome" },
			{ start: 4, end: 6, text: "Second line" },
		]);
	});

	it("reads WebVTT with its header, notes, styles, cue ids, settings, voices and hours left out", () => {
		const vtt = [
			"WEBVTT - a talk",
			"Kind: captions",
			"Language: hi",
			"",
			"NOTE made by hand",
			"",
			"STYLE",
			"::cue { color: yellow }",
			"",
			"intro",
			"00:01.000 --> 00:02.500 align:start position:10%",
			"<v Asha>नमस्ते दोस्तों",
			"",
			"01:00:00.000 --> 01:00:01.000",
			"(applause) शुक्रिया",
		].join("\n");
		expect(parseCaptions(vtt)).toEqual([
			{ start: 1, end: 2.5, text: "नमस्ते दोस्तों" },
			{ start: 3600, end: 3601, text: "शुक्रिया" },
		]);
	});

	it("says on which line a file stops being captions", () => {
		expect(() => parseCaptions("1\n00:00:01,000 -> 00:00:02,000\nhi\n")).toThrow(CaptionsError);
		expect(() => parseCaptions("1\n00:00:01,000 -> 00:00:02,000\nhi\n")).toThrow(/line 1/);
		expect(() => parseCaptions("1\n00:00:05,000 --> 00:00:02,000\nhi\n")).toThrow(/line 2: the cue ends before/);
		expect(() => parseCaptions("WEBVTT\n\n00:01.000 --> 00:02.000\n[Music]\n")).toThrow(/no cue with words/);
	});

	it("keeps each line of rolling automatic captions once, with the words' own times", () => {
		// The shape of YouTube's automatic WebVTT: a timed cue, a 10 ms cue repeating it, the next cue repeating its line on top.
		const vtt = [
			"WEBVTT",
			"Kind: captions",
			"",
			"00:00:00.000 --> 00:00:02.000",
			"so<00:00:00.400><c> last</c><00:00:00.800><c> winter</c>",
			"",
			"00:00:02.000 --> 00:00:02.010",
			"so last winter",
			"",
			"00:00:02.010 --> 00:00:04.000",
			"so last winter",
			"I<00:00:02.500><c> lost</c><00:00:03.000><c> my</c><00:00:03.300><c> keys</c>",
		].join("\n");
		const cues = parseCaptions(vtt);
		expect(cues.map((c) => c.text)).toEqual(["so last winter", "I lost my keys"]);
		const t = transcriptFromCues(cues, { duration: 10, language: "en" });
		expect(t.words.map((w) => [w.word, w.start])).toEqual([
			["so", 0],
			["last", 0.4],
			["winter", 0.8],
			["I", 2.01],
			["lost", 2.5],
			["my", 3],
			["keys", 3.3],
		]);
	});
});

describe("words and their times in any script", () => {
	it("cuts Japanese, Chinese and Thai into words, and joins them back without spaces", () => {
		for (const [text, language] of [
			["去年の春、姉に説得されて市のハーフマラソンに出ることになった。", "ja"],
			["我们明天去公园散步吧", "zh"],
			["เมื่อวานฉันไปตลาดกับแม่", "th"],
		] as const) {
			const words = wordsOf(text, language);
			expect(words.length).toBeGreaterThan(3);
			expect(joinWords(words)).toBe(text);
		}
	});

	it("joins spaced scripts with spaces, and a spaced word beside an unspaced one with one", () => {
		expect(joinWords(["नमस्ते", "दोस्तों"])).toBe("नमस्ते दोस्तों");
		expect(joinWords(["iPhone", "を", "買った"])).toBe("iPhone を買った");
	});

	it("joins a word that opens on a mark Japanese shares between its scripts (ー, 々, ・) without a space", () => {
		// "ー" is Script=Common; only its Script_Extensions say Hiragana and Katakana.
		expect(joinWords(["市のハ", "ーフマ", "ラソン"])).toBe("市のハーフマラソン");
		expect(joinWords(["人", "々が"])).toBe("人々が");
		expect(joinWords(["コーヒー", "・", "ショップ"])).toBe("コーヒー・ショップ");
	});

	it("spreads a cue's time by letters and marks, not by bytes or code units", () => {
		expect(weightOf("नमस्ते")).toBe(3); // na-ma-ste: three graphemes (aksharas), six code points
		expect(weightOf("hi!")).toBe(2);
		expect(weightOf("...")).toBe(1);
		const t = transcriptFromCues([{ start: 0, end: 6, text: "नमस्ते hi" }], { duration: 6, language: "hi" });
		expect(t.words.map((w) => [w.start, w.end])).toEqual([
			[0, 3.6],
			[3.6, 6],
		]);
	});

	it("keeps only the words said inside the time frame", () => {
		const cues = parseCaptions(
			"1\n00:00:00,000 --> 00:00:04,000\none two three four\n\n2\n00:00:10,000 --> 00:00:12,000\nfive six\n",
		);
		// one 0-0.8, two 0.8-1.6 …, five 10-11.14, six 11.14-12 (by letters)
		const t = transcriptFromCues(cues, { duration: 20, language: "en", frame: { start: 0.5, end: 11.5 } });
		expect(t.words.map((w) => w.word)).toEqual(["two", "three", "four", "five"]);
	});

	it("times every word inside its cue, in order, whatever the text (property)", () => {
		const word = fc.oneof(
			fc.constantFrom("hello", "नमस्ते", "مرحبا", "שלום", "こんにちは", "你好", "สวัสดี", "¡Hola!", "Straße", "42"),
			fc.string({ minLength: 1, maxLength: 8 }).filter((s) => /\S/.test(s) && !/[<>&\n\r]/.test(s)),
		);
		fc.assert(
			fc.property(
				fc.array(
					fc.tuple(
						fc.double({ min: 0.05, max: 30, noNaN: true }),
						fc.array(word, { minLength: 1, maxLength: 12 }),
					),
					{
						minLength: 1,
						maxLength: 20,
					},
				),
				(raw) => {
					let at = 0;
					const cues = raw.map(([seconds, words]) => {
						const cue = { start: at, end: at + seconds, text: words.join(" ") };
						at += seconds + 0.1;
						return cue;
					});
					const t = transcriptFromCues(cues, { duration: at + 1, language: "und" });
					for (const w of t.words) expect(w.end).toBeGreaterThanOrEqual(w.start);
					for (let k = 1; k < t.words.length; k++)
						expect(t.words[k]!.start).toBeGreaterThanOrEqual(t.words[k - 1]!.start);
					for (const s of t.segments)
						for (const w of s.words) {
							expect(w.start).toBeGreaterThanOrEqual(s.start);
							expect(w.end).toBeLessThanOrEqual(s.end);
						}
				},
			),
		);
	});
});
