import { describe, expect, it } from "vitest";
import { assTime, escapeAssText } from "../src/captions/ass-syntax.ts";
import { breakLines, pagesOf } from "../src/captions/pages.ts";
import { buildAssDocument, HOOK_SECONDS } from "../src/captions/ass-document.ts";
import { textWidth } from "../src/captions/fonts.ts";
import { presetLook, type CaptionStyle, type Word } from "@clipforge/contract";
import { layoutFor } from "../src/framing/layout.ts";

const layout = layoutFor("9:16", null);

/** A talk: phrases of 3-9 words, words 0.2-0.6 s, short gaps inside phrases, pauses of 0.8-2 s between. */
function talk(seed: number): Word[] {
	let state = seed;
	const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
	const words: Word[] = [];
	let t = 0.3;
	for (let phrase = 0; phrase < 8; phrase++) {
		const count = 3 + Math.floor(random() * 7);
		for (let i = 0; i < count; i++) {
			const length = 0.2 + random() * 0.4;
			const text = [
				"we",
				"build",
				"remarkable",
				"clips",
				"from",
				"long",
				"videos",
				"today",
				"every",
				"single",
				"time",
			][Math.floor(random() * 11)]!;
			words.push({ word: i === count - 1 ? `${text}.` : text, start: t, end: t + length });
			t += length + 0.05 + random() * 0.2;
		}
		t += 0.8 + random() * 1.2;
	}
	return words;
}

interface Event {
	start: number;
	end: number;
	style: string;
	text: string;
}

function eventsOf(ass: string): Event[] {
	const seconds = (s: string) => {
		const [h, m, rest] = s.split(":");
		return Number(h) * 3600 + Number(m) * 60 + Number(rest);
	};
	return ass
		.split("\n")
		.filter((l) => l.startsWith("Dialogue:"))
		.map((l) => {
			const fields = l.slice("Dialogue: ".length).split(",");
			return {
				start: seconds(fields[1]!),
				end: seconds(fields[2]!),
				style: fields[3]!,
				text: fields.slice(9).join(","),
			};
		});
}

const visibleText = (text: string) => text.replace(/\{[^}]*\}/g, "").replace(/\\N/g, " ");

describe("caption timing", () => {
	for (const style of ["karaoke", "word-by-word", "sentence"] as CaptionStyle[]) {
		it(`${style}: every event starts and ends within 50 ms of a word's timing, and nothing shows during pauses`, () => {
			const words = talk(style.length);
			const events = eventsOf(
				buildAssDocument({
					layout,
					captions: { look: presetLook(style), words },
					hookTitle: null,
					duration: 120,
				}),
			);
			expect(events.length).toBeGreaterThan(0);
			const near = (t: number, times: number[]) => times.some((w) => Math.abs(w - t) <= 0.05);
			for (const e of events) {
				expect(
					near(
						e.start,
						words.map((w) => w.start),
					),
				).toBe(true);
				expect(near(e.end, [...words.map((w) => w.end), ...words.map((w) => w.start)])).toBe(true);
			}
			// Pauses of 0.8 s or more between phrases: no event covers their middle.
			for (let i = 1; i < words.length; i++) {
				const gap = words[i]!.start - words[i - 1]!.end;
				if (gap < 0.8) continue;
				const middle = (words[i]!.start + words[i - 1]!.end) / 2;
				expect(events.some((e) => e.start <= middle && e.end > middle)).toBe(false);
			}
			// Every word is shown while it is spoken.
			for (const w of words) {
				const middle = (w.start + w.end) / 2;
				expect(
					events.some(
						(e) =>
							e.start <= middle &&
							e.end >= middle &&
							visibleText(e.text).toLowerCase().includes(w.word.toLowerCase()),
					),
				).toBe(true);
			}
		});
	}

	it("karaoke highlights exactly the word being spoken", () => {
		const words = talk(3);
		const events = eventsOf(
			buildAssDocument({
				layout,
				captions: { look: presetLook("karaoke"), words },
				hookTitle: null,
				duration: 120,
			}),
		);
		expect(events).toHaveLength(words.length);
		events.forEach((e, i) => {
			const highlighted = /\{\\1c&H00E6FF&\}(.*?)\{/.exec(e.text)?.[1];
			expect(highlighted).toBe(words[i]!.word);
		});
	});

	it("clips words to the clip's duration and drops empty ones", () => {
		const events = eventsOf(
			buildAssDocument({
				layout,
				captions: {
					look: presetLook("word-by-word"),
					words: [
						{ word: " ", start: 0, end: 1 },
						{ word: "late", start: 9.5, end: 11 },
						{ word: "gone", start: 12, end: 13 },
					],
				},
				hookTitle: null,
				duration: 10,
			}),
		);
		expect(events).toEqual([expect.objectContaining({ start: 9.5, end: 10 })]);
	});
});

describe("pages and lines", () => {
	it("never lets a line run wider than the frame's safe width, at most two lines per karaoke page", () => {
		const words = talk(7).map((w, i) => ({ ...w, word: i % 3 === 0 ? "extraordinarily" : w.word }));
		for (const page of pagesOf(words, layout, 2, 8)) {
			expect(page.lineStarts.length).toBeLessThanOrEqual(2);
			page.lineStarts.forEach((start, line) => {
				const text = page.words
					.slice(start, page.lineStarts[line + 1] ?? page.words.length)
					.map((w) => w.word)
					.join(" ");
				expect(textWidth(text, layout.fontSize)).toBeLessThanOrEqual(layout.maxLineWidth);
			});
		}
	});

	it("starts a new page after a sentence end", () => {
		const words: Word[] = [
			{ word: "One.", start: 0, end: 0.3 },
			{ word: "Two", start: 0.35, end: 0.6 },
		];
		expect(pagesOf(words, layout, 2, 8).map((p) => p.words.length)).toEqual([1, 1]);
	});

	it("breaks hook titles by width", () => {
		const lines = breakLines(
			"The one habit that quietly doubled my focus in a single week",
			layout.hookFontSize,
			layout.maxLineWidth,
		);
		expect(lines.length).toBeGreaterThan(1);
		for (const line of lines) expect(textWidth(line, layout.hookFontSize)).toBeLessThanOrEqual(layout.maxLineWidth);
	});
});

describe("hook title", () => {
	it("is one Hook event over the first seconds, shorter clips end it early", () => {
		const [hook] = eventsOf(buildAssDocument({ layout, captions: null, hookTitle: "Watch this", duration: 60 }));
		expect(hook).toMatchObject({ start: 0, end: HOOK_SECONDS, style: "Hook" });
		const [short] = eventsOf(buildAssDocument({ layout, captions: null, hookTitle: "Watch this", duration: 2 }));
		expect(short!.end).toBe(2);
		expect(eventsOf(buildAssDocument({ layout, captions: null, hookTitle: "   ", duration: 60 }))).toEqual([]);
	});
});

describe("escapeAssText", () => {
	it("keeps override tags, line breaks and backslashes from being interpreted", () => {
		const escaped = escapeAssText("{\\b1}bold\\N 50% C:\\x\nnext");
		expect(escaped).not.toMatch(/(^|[^\\])\{/); // every brace is escaped
		expect(escaped).not.toMatch(/\\[Nnh]/); // no live line-break escape
		expect(escaped.replace(/\u2060/g, "").replace(/\\([{}])/g, "$1")).toBe("{\\b1}bold\\N 50% C:\\x next");
	});

	it("cannot inject a new Dialogue line", () => {
		const ass = buildAssDocument({
			layout,
			captions: null,
			hookTitle: "x\nDialogue: 0,0:00:00.00,0:09:00.00,Hook,,0,0,0,,owned",
			duration: 10,
		});
		expect(ass.split("\n").filter((l) => l.startsWith("Dialogue:"))).toHaveLength(1);
	});
});

describe("assTime", () => {
	it("formats H:MM:SS.cc rounded to centiseconds", () => {
		expect(assTime(0)).toBe("0:00:00.00");
		expect(assTime(61.234)).toBe("0:01:01.23");
		expect(assTime(3723.456)).toBe("1:02:03.46");
	});
});
