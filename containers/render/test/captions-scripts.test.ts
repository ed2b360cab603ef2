/**
 * The caption rules for scripts other than Latin, on the ASS text alone (no ffmpeg): words joined
 * as the script writes them, karaoke by token, lines broken where the script allows, right-to-left
 * pages in logical order with libass's automatic direction, the face chosen for each script, and
 * upper-casing. test/scripts.test.ts renders and reads the same rules back with tesseract.
 */
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
	CAPTION_FONTS,
	CAPTION_PRESET_IDS,
	CJK_FALLBACK_FONT,
	FALLBACK_FONTS,
	presetLook,
	type CaptionLook,
	type CaptionPresetId,
	type Word,
} from "@clipforge/contract";
import { breakLines, buildAssDocument, pagesOf } from "../src/captions.ts";
import { captionFonts, cjkRegionOf, scriptOf } from "../src/captions/fonts.ts";
import { fontFile } from "../src/captions/font-file.ts";
import { captionTokens, endsSentence, textTokens, upperCase, upperLocaleOf } from "../src/captions/text.ts";
import { layoutFor } from "../src/layout.ts";

const layout = layoutFor("9:16", null);
const timed = (tokens: string[], step = 0.3): Word[] =>
	tokens.map((word, i) => ({ word, start: 0.2 + i * step, end: 0.2 + i * step + step * 0.8 }));

interface Event {
	start: number;
	style: string;
	layer: number;
	/** The Text field as written. */
	raw: string;
	/** What is drawn: tags removed, `\N` as a newline, direction marks removed. */
	text: string;
}

function events(look: CaptionLook | CaptionPresetId, words: Word[], hookTitle: string | null = null): Event[] {
	const ass = buildAssDocument({
		layout,
		captions: { look: typeof look === "string" ? presetLook(look) : look, words },
		hookTitle,
		duration: 60,
	});
	return ass
		.split("\n")
		.filter((l) => l.startsWith("Dialogue:"))
		.map((l) => {
			const fields = l.slice("Dialogue: ".length).split(",");
			const raw = fields.slice(9).join(",");
			const [h, m, s] = fields[1]!.split(":").map(Number);
			return {
				start: h! * 3600 + m! * 60 + s!,
				layer: Number(fields[0]),
				style: fields[3]!,
				raw,
				text: raw
					.replace(/\{[^}]*\}/g, "")
					.replace(/\\N/g, "\n")
					.replace(/[\u200e\u200f]/g, ""),
			};
		});
}
/** The caption text's own events (not the lower third's bar, a drawing). */
const captions = (look: CaptionPresetId, words: Word[]) =>
	events(look, words).filter((e) => e.style === "Caption" && e.layer === 0 && !e.raw.includes("\\p1"));
/** What successive events show, each page once. */
const pagesShown = (shown: Event[]) =>
	shown.map((e) => e.text.replace(/\n/g, "")).filter((text, i, all) => i === 0 || text !== all[i - 1]);

const JAPANESE = "去年|の|春|、|姉|に|説得|されて|市|の|ハ|ーフマ|ラソン|に|出る|こと|に|なった|。".split("|");
const CHINESE = "我们|今天|去|公园|散步|了|，|天气|非常|好|。".split("|");
const THAI = "ผม|ชอบ|กิน|ข้|าว|ผัด|มาก|เพราะ|อร่อย|ที่สุด".split("|");
const ARABIC = "اشتريت 3 كتب في عام 2024 وكانت رائعة جدا".split(" ");
const HEBREW = "קניתי 3 ספרים בשנת 2024 והם היו נהדרים".split(" ");

describe("words joined as the script writes them", () => {
	for (const [name, tokens, written] of [
		["Japanese", JAPANESE, JAPANESE.join("")],
		["Chinese", CHINESE, CHINESE.join("")],
		["Thai", THAI, THAI.join("")],
	] as const) {
		it(`${name}: no space between Whisper's tokens, in every look`, () => {
			for (const look of CAPTION_PRESET_IDS) {
				const shown = captions(look, timed([...tokens]));
				expect(shown.length, look).toBeGreaterThan(0);
				for (const e of shown) expect(e.text, look).not.toMatch(/ /);
				// Everything is shown, in order (pages and lines may split it).
				expect(pagesShown(shown).join(""), look).toBe(written);
			}
		});
	}

	it("keeps spaces between words of spaced scripts, and none where a spaced word meets CJK", () => {
		expect(captions("sentence", timed("Größe Straße niño".split(" ")))[0]!.text).toBe("Größe Straße niño");
		expect(captions("sentence", timed(["iPhone", "を", "買った"]))[0]!.text).toBe("iPhoneを買った");
		expect(captions("sentence", timed(ARABIC))[0]!.text.replace(/\n/g, " ")).toBe(ARABIC.join(" "));
	});

	it("joins a token cut inside a character cluster to the one before (no dangling Thai mark)", () => {
		const tokens = captionTokens(timed(["ข", "้าว", "ผัด"]));
		expect(tokens.map((t) => t.word)).toEqual(["ข้าว", "ผัด"]);
		expect(tokens[0]).toMatchObject({ start: 0.2, end: expect.closeTo(0.74, 5) });
		// CJK punctuation goes with its neighbour: "、" after, "「" before.
		expect(captionTokens(timed(["春", "、", "「", "姉", "」"])).map((t) => t.word)).toEqual(["春、", "「姉」"]);
		// A lone punctuation token of a spaced script stays a word (French writes " ?").
		expect(captionTokens(timed(["garçon", "?"])).map((t) => t.word)).toEqual(["garçon", "?"]);
	});
});

describe("karaoke by token", () => {
	for (const [name, tokens] of [
		["Japanese", JAPANESE],
		["Chinese", CHINESE],
		["Thai", THAI],
		["Arabic", ARABIC],
		["Hebrew", HEBREW],
	] as const) {
		it(`${name}: one event per token, the spoken token in the highlight colour`, () => {
			const expected = captionTokens(timed([...tokens]));
			const shown = captions("karaoke", timed([...tokens]));
			expect(shown).toHaveLength(expected.length);
			shown.forEach((e, i) => {
				const highlighted = /\{\\1c&H00E6FF&\}(.*?)\{\\1c&HFFFFFF&\}/
					.exec(e.raw)?.[1]
					?.replace(/\{[^}]*\}/g, "");
				expect(highlighted).toBe(expected[i]!.word);
				expect(e.start).toBeCloseTo(expected[i]!.start, 2);
			});
		});
	}

	it("highlight-box boxes the same token the text layer draws, at the same place in the text", () => {
		const all = events("highlight-box", timed(JAPANESE));
		const text = all.filter((e) => e.style === "Caption");
		const box = all.filter((e) => e.style === "CaptionBox");
		expect(box).toHaveLength(text.length);
		box.forEach((e, i) => {
			// Same characters, same font tags: the box layer lays out exactly like the text.
			expect(e.text).toBe(text[i]!.text);
			expect(e.raw.match(/\\fn[^\\}]*/g)).toEqual(text[i]!.raw.match(/\\fn[^\\}]*/g));
		});
	});

	it("word-by-word shows a word at a time: the tokens up to a word boundary", () => {
		const shown = captions("word-by-word", timed(JAPANESE)).map((e) => e.text);
		expect(shown).toContain("ハーフマラソン");
		expect(shown.join("")).toBe(JAPANESE.join(""));
		expect(captions("word-by-word", timed(THAI)).map((e) => e.text)).toEqual([
			"ผม",
			"ชอบ",
			"กิน",
			"ข้าว",
			"ผัด",
			"มาก",
			"เพราะ",
			"อร่อย",
			"ที่สุด",
		]);
	});
});

describe("line breaking", () => {
	const fonts = captionFonts("dejavu-sans", "JP");
	const segmenter = new Intl.Segmenter(undefined, { granularity: "word" });
	const wordStarts = (text: string) => new Set([...segmenter.segment(text)].map((s) => s.index));

	it("breaks Japanese and Chinese between tokens at word boundaries, within the safe width, never before 、 or ー", () => {
		for (const tokens of [JAPANESE, CHINESE]) {
			const text = tokens.join("");
			const starts = wordStarts(text);
			const pages = pagesOf(timed([...tokens], 0.1), { ...layout, fonts }, 3, Infinity);
			let offset = 0;
			for (const page of pages) {
				page.lineStarts.forEach((start, l) => {
					const line = page.words.slice(start, page.lineStarts[l + 1] ?? page.words.length);
					const joined = line.map((w) => w.word).join("");
					expect(fonts.width(joined, layout.fontSize)).toBeLessThanOrEqual(layout.maxLineWidth);
					expect(starts.has(offset), joined).toBe(true);
					expect(joined).not.toMatch(/^[、。，ー]/);
					offset += joined.length;
				});
			}
			expect(pages.flatMap((p) => p.lineStarts).length).toBeGreaterThan(1);
		}
	});

	it("breaks Thai at word boundaries only, even where Whisper's tokens cut words", () => {
		const thai = captionFonts("dejavu-sans", "SC");
		// A long sentence: many tokens, several lines.
		const tokens = [...THAI, ...THAI, ...THAI];
		const text = tokens.join("");
		const starts = wordStarts(text);
		const pages = pagesOf(timed(tokens, 0.1), { ...layout, fonts: thai }, 2, Infinity);
		let offset = 0;
		let lines = 0;
		for (const page of pages)
			page.lineStarts.forEach((start, l) => {
				const joined = page.words
					.slice(start, page.lineStarts[l + 1] ?? page.words.length)
					.map((w) => w.word)
					.join("");
				expect(starts.has(offset), joined).toBe(true);
				expect(thai.width(joined, layout.fontSize)).toBeLessThanOrEqual(layout.maxLineWidth);
				offset += joined.length;
				lines++;
			});
		expect(lines).toBeGreaterThan(2);
	});

	it("breaks a hook title without spaces into lines at word boundaries", () => {
		const title = "去年の春、姉に説得されて市のハーフマラソンに出ることになった";
		const lines = breakLines(title, layout.hookFontSize, layout.maxLineWidth, fonts);
		expect(lines.length).toBeGreaterThan(1);
		expect(lines.join("")).toBe(title);
		for (const line of lines)
			expect(fonts.width(line, layout.hookFontSize)).toBeLessThanOrEqual(layout.maxLineWidth);
		// The ranker's space-joined title is drawn as Japanese is written.
		const hook = events("karaoke", [], "去年 の 春 、 姉 に 説得 されて").find((e) => e.style === "Hook")!;
		expect(hook.text).toBe("去年の春、姉に説得されて");
		expect(textTokens("The one habit").map((t) => t.word)).toEqual(["The", "one", "habit"]);
	});

	it("starts a new page after any script's sentence end", () => {
		for (const end of ["किताब।", "كتب؟", "終わり。", "好！", "done.", "«fin»."])
			expect(endsSentence(end), end).toBe(true);
		expect(endsSentence("2024")).toBe(false);
		const pages = pagesOf(timed(["मैंने", "किताब।", "फिर"]), layout, 2, 8);
		expect(pages.map((p) => p.words.length)).toEqual([2, 1]);
	});
});

describe("right to left", () => {
	it("uses libass's automatic base direction (Encoding -1) for captions and the hook", () => {
		const ass = buildAssDocument({
			layout,
			captions: { look: presetLook("karaoke"), words: timed(ARABIC) },
			hookTitle: "كتب",
			duration: 60,
		});
		for (const style of ass.split("\n").filter((l) => l.startsWith("Style:"))) expect(style).toMatch(/,-1$/);
	});

	it("keeps the words in reading (logical) order in the ASS text, numbers as written; libass lays them right to left", () => {
		for (const [words, look] of [
			[ARABIC, "karaoke"],
			[HEBREW, "highlight-box"],
			[ARABIC, "word-by-word"],
			[HEBREW, "two-color"],
		] as const) {
			const shown = captions(look, timed([...words]))
				.map((e) => e.text.replace(/\n/g, " "))
				.filter((text, i, all) => i === 0 || text !== all[i - 1]);
			expect(shown.join(" "), look).toBe(words.join(" "));
		}
	});

	it("opens a line of a right-to-left page with a right-to-left mark when the line starts left to right", () => {
		const words = timed(["קניתי", "iPhone", "חדש"]);
		const look: CaptionLook = { ...presetLook("sentence"), maxWordsPerLine: 1 };
		const [page] = events(look, words).filter((e) => e.style === "Caption");
		const lines = page!.raw.split("\\N");
		expect(lines[1]).toMatch(/^(\{[^}]*\})*\u200f/);
		expect(lines[0]).not.toMatch(/\u200f/);
		// An LTR page never gets marks.
		expect(events("sentence", timed(["Hello", "world"]))[0]!.raw).not.toMatch(/[\u200e\u200f]/);
	});
});

describe("fonts for every script", () => {
	const face = (font: Parameters<typeof captionFonts>[0], text: string, region: "JP" | "SC" | "KR" | "TC" = "SC") =>
		captionFonts(font, region)
			.runs(text)
			.map((r) => r.face?.family ?? "look");

	it("every fallback face is installed and has the letters of its script", () => {
		const samples: Record<string, string> = {
			Latin: "ẞŐ",
			Greek: "Ωλ",
			Cyrillic: "Жд",
			Arabic: "عربی",
			Hebrew: "שלום",
			Devanagari: "किताब",
			Bengali: "বাংলা",
			Gurmukhi: "ਪੰਜਾਬੀ",
			Gujarati: "ગુજરાતી",
			Oriya: "ଓଡ଼ିଆ",
			Tamil: "தமிழ்",
			Telugu: "తెలుగు",
			Kannada: "ಕನ್ನಡ",
			Malayalam: "മലയാളം",
			Sinhala: "සිංහල",
			Thai: "ภาษาไทย",
			Lao: "ພາສາລາວ",
			Khmer: "ខ្មែរ",
			Myanmar: "မြန်မာ",
			Georgian: "ქართული",
			Armenian: "Հայերեն",
			Ethiopic: "አማርኛ",
			Thaana: "ދިވެހި",
		};
		for (const font of [...FALLBACK_FONTS, CJK_FALLBACK_FONT]) {
			expect(existsSync(font.file), `${font.file} (${font.debianPackage})`).toBe(true);
		}
		for (const [script, sample] of Object.entries(samples)) {
			const faces = FALLBACK_FONTS.filter((f) => f.script === script);
			expect(faces.length, script).toBeGreaterThan(0);
			// The last face of a script's list has every letter (the first may not: Urdu in DejaVu).
			const last = fontFile(faces.at(-1)!.file);
			for (const ch of sample.replace(/\p{M}/gu, ""))
				expect(last.has(ch.codePointAt(0)!), `${script} ${ch}`).toBe(true);
		}
		const cjk = fontFile(CJK_FALLBACK_FONT.file);
		for (const ch of "中文日本語のカタカナ한국어") expect(cjk.has(ch.codePointAt(0)!), ch).toBe(true);
	});

	it("the look's own font where it has the letters; a Noto face (or DejaVu for Hebrew and Arabic) where it does not", () => {
		expect(face("dejavu-sans", "Größe")).toEqual(["look"]);
		expect(face("bebas-neue", "GRÖSSE")).toEqual(["look"]);
		expect(face("bebas-neue", "שלום 2024")).toEqual(["DejaVu Sans"]);
		expect(face("lato-black", "كتب في عام 2024")).toEqual(["DejaVu Sans"]);
		expect(face("lato-black", "ے")).toEqual(["Noto Sans Arabic"]); // Urdu's yeh barree: not in DejaVu Sans Bold
		expect(face("dejavu-sans", "किताब")).toEqual(["Noto Sans Devanagari"]);
		expect(face("dejavu-sans", "ภาษาไทย")).toEqual(["Noto Sans Thai"]);
		expect(face("bebas-neue", "ΚΑΛΗΜΕΡΑ")).toEqual(["Noto Sans"]);
		expect(face("lato-black", "ქართული")).toEqual(["Noto Sans Georgian"]);
		// CJK in the transcript's region.
		expect(face("dejavu-sans", "中文", "JP")).toEqual(["Noto Sans CJK JP"]);
		expect(face("dejavu-sans", "中文", "SC")).toEqual(["Noto Sans CJK SC"]);
		expect(cjkRegionOf(["去年", "の"])).toBe("JP");
		expect(cjkRegionOf(["我们", "今天"])).toBe("SC");
		expect(cjkRegionOf(["我們", "今天"])).toBe("TC");
		expect(cjkRegionOf(["한국어"])).toBe("KR");
		// A mixed line: each part in its face, a word never split between two.
		expect(face("bebas-neue", "PRICE ราคา 100")).toEqual(["look", "Noto Sans Thai", "look"]);
		expect(scriptOf("3")).toBe("Common");
	});

	it("draws a fallback face at the look's em size (libass sizes faces by their win ascent + descent)", () => {
		const fonts = captionFonts("dejavu-sans", "SC");
		const arabic = {
			family: "Noto Sans Arabic",
			file: FALLBACK_FONTS.find((f) => f.family === "Noto Sans Arabic")!.file,
		};
		const dejavu = fontFile(CAPTION_FONTS[0].file);
		const size = fonts.sizeFor(arabic, 76);
		expect(size * fontFile(arabic.file).emPerSize).toBeCloseTo(76 * dejavu.emPerSize, 0);
		expect(size).toBeGreaterThan(120);
		// In the ASS: a \fn with its \fs, and back to the look's font after.
		const [e] = captions("karaoke", timed(["किताब", "Hello"]));
		expect(e!.raw).toMatch(/\\fnNoto Sans Devanagari\\fs\d+\}किताब/);
		expect(e!.raw).toMatch(/\\fnDejaVu Sans\\fs76\}.*Hello/);
	});

	it("a look drawn regular (Lato Black) gets its fallback face bold", () => {
		const [e] = captions("boxed", timed(["किताब"]));
		expect(e!.raw).toMatch(/\\fnNoto Sans Devanagari\\fs\d+\\b1\}/);
	});
});

describe("upper case", () => {
	it("Turkish dotted and dotless i, German ß, Greek without accents, Georgian and caseless scripts unchanged", () => {
		const upper = (words: string[]) => {
			const locale = upperLocaleOf(words);
			return words.map((w) => upperCase(w, locale));
		};
		expect(upper(["istanbul", "ılık", "bir"])).toEqual(["İSTANBUL", "ILIK", "BİR"]);
		expect(upper(["Straße", "istanbul"])).toEqual(["STRASSE", "ISTANBUL"]);
		expect(upper(["καλημέρα", "άνθρωπος"])).toEqual(["ΚΑΛΗΜΕΡΑ", "ΑΝΘΡΩΠΟΣ"]);
		expect(upper(["ქართული"])).toEqual(["ქართული"]);
		for (const w of [...ARABIC, ...HEBREW, ...JAPANESE, ...THAI, "किताब"]) expect(upper([w])).toEqual([w]);
	});

	it("takes the render request's language over the letters: Turkish without ı or ğ, and English with them", () => {
		expect(upperCase("istanbul", upperLocaleOf(["istanbul"], "tr"))).toBe("İSTANBUL");
		expect(upperCase("istanbul", upperLocaleOf(["ılık"], "en"))).toBe("ISTANBUL");
		expect(upperLocaleOf(["ılık"], null)).toBe("tr");
	});

	it("upper-casing looks draw them so", () => {
		const shown = captions("word-by-word", timed(["İstanbul'da", "ılık", "bir", "gün"])).map((e) => e.text);
		expect(shown).toEqual(["İSTANBUL'DA", "ILIK", "BİR", "GÜN"]);
		expect(captions("bold-outline", timed(["große", "Tür"]))[0]!.text).toBe("GROSSE TÜR");
	});
});
