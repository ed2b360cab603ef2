/**
 * Which face draws each stretch of caption text, and how wide it is. A look names one font (DejaVu
 * Sans Bold, Lato Black, Bebas Neue, …), most of them Latin-only. A stretch of text in a script
 * the look's font lacks (by its own cmap: some character of the stretch has no glyph) is drawn in
 * the Noto face for that script (looks.ts `FALLBACK_FONTS`, `CJK_FALLBACK_FONT`), bold, at the
 * size that gives it the look font's em (libass sizes a face by its win ascent + descent, which
 * for Noto Sans Arabic would make letters half the size of the Latin ones). A script with no face
 * listed is left to libass's own fallback (fontconfig).
 *
 * Stretches are split by script (UAX #24 style: digits, punctuation and marks go with the letters
 * before them, or after them at the start), so a word is never drawn in two faces mid-word.
 */
import { CAPTION_FONTS, CJK_FALLBACK_FONT, FALLBACK_FONTS, type CaptionFontId } from "@clipforge/contract";
import { fontFile } from "./font-file.ts";

export type CjkRegion = keyof typeof CJK_FALLBACK_FONT.families;

export interface Face {
	family: string;
	file: string;
}

/** A stretch of text and its face (null: the look's font, or libass's fallback for a script with no face listed). */
export interface TextRun {
	text: string;
	face: Face | null;
}

const SCRIPTS = [
	...FALLBACK_FONTS.map((f) => ({ script: f.script, test: new RegExp(`\\p{Script=${f.script}}`, "u") })),
	...CJK_FALLBACK_FONT.scripts.map((script) => ({ script, test: new RegExp(`\\p{Script=${script}}`, "u") })),
];
const NEUTRAL = /[\p{Script=Common}\p{Script=Inherited}]/u;
/** Characters drawn as nothing: spaces, joiners, direction marks, variation selectors. */
const INVISIBLE = /[\s\p{Default_Ignorable_Code_Point}]/u;
const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** The Unicode script of a character ("Common" for digits, punctuation, marks; "Other" for scripts with no face). */
export function scriptOf(ch: string): string {
	if (NEUTRAL.test(ch)) return "Common";
	return SCRIPTS.find((s) => s.test.test(ch))?.script ?? "Other";
}

/**
 * The CJK region a transcript's Han characters are drawn for: Japanese if it has kana, Korean if it
 * has Hangul, traditional Chinese if it uses characters only traditional writing has, else simplified.
 */
export function cjkRegionOf(texts: string[]): CjkRegion {
	const all = texts.join("");
	if (/[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(all)) return "JP";
	if (/\p{Script=Hangul}/u.test(all)) return "KR";
	if (/[們這說個國來時會對學與開關後發見經還進點過為麼號體們們讓當實話電歲]/u.test(all)) return "TC";
	return "SC";
}

export interface CaptionFonts {
	/** The look font's family and whether the style draws it bold. */
	family: string;
	bold: boolean;
	/** The text split into stretches by face. */
	runs(text: string): TextRun[];
	/** Width in pixels of `text` at ASS font size `fontSize` (the look font's part estimated wide, as before). */
	width(text: string, fontSize: number): number;
	/** The `\fs` that gives `face` the look font's em at `fontSize`. */
	sizeFor(face: Face, fontSize: number): number;
}

const cache = new Map<string, CaptionFonts>();

export function captionFonts(fontId: CaptionFontId, region: CjkRegion): CaptionFonts {
	const key = `${fontId}/${region}`;
	let fonts = cache.get(key);
	if (!fonts) {
		fonts = makeFonts(fontId, region);
		cache.set(key, fonts);
	}
	return fonts;
}

/** Which faces can draw what, for one look font and CJK region. */
interface Chooser {
	/** Whether `face` (null: the look's font) has every visible character of `text`. */
	hasAll(text: string, face: Face | null): boolean;
	/** The face for a stretch of one script the look lacks: the first listed with all of it, else with its letters. */
	faceFor(script: string, text: string): Face | null;
}

function chooser(lookFile: string, region: CjkRegion): Chooser {
	const look = fontFile(lookFile);
	const chainFor = (script: string): Face[] => {
		if ((CJK_FALLBACK_FONT.scripts as readonly string[]).includes(script))
			return [{ family: CJK_FALLBACK_FONT.families[region], file: CJK_FALLBACK_FONT.file }];
		return FALLBACK_FONTS.filter((f) => f.script === script).map((f) => ({ family: f.family, file: f.file }));
	};
	const hasAll = (text: string, face: Face | null) => {
		const has = face ? fontFile(face.file).has : look.has;
		return [...text].every((ch) => INVISIBLE.test(ch) || has(ch.codePointAt(0)!));
	};
	return {
		hasAll,
		faceFor(script, text) {
			const chain = chainFor(script === "Common" ? "Latin" : script);
			return (
				chain.find((f) => hasAll(text, f)) ??
				chain.find((f) => hasAll(letters(text), f)) ??
				(script === "Common" ? null : (chain[0] ?? null))
			);
		},
	};
}

const letters = (text: string) => [...text].filter((ch) => !NEUTRAL.test(ch) && !INVISIBLE.test(ch)).join("");

interface Part {
	text: string;
	script: string;
	/** Digits, punctuation, spaces, marks: their script is their neighbours'. */
	neutral: boolean;
	face: Face | null;
}

/** The text's graphemes with their script; neutral ones take the script before them (or after, at the start). */
function scriptParts(text: string): Part[] {
	const parts = [...graphemes.segment(text)].map((g) => {
		const script = [...g.segment].map(scriptOf).find((s) => s !== "Common") ?? "Common";
		return { text: g.segment, script, neutral: script === "Common", face: null as Face | null };
	});
	let previous = parts.find((p) => !p.neutral)?.script ?? "Common";
	for (const part of parts) {
		if (part.neutral) part.script = previous;
		else previous = part.script;
	}
	return parts;
}

/** The text split into stretches by face (see the file's comment). */
function faceRuns(text: string, choose: Chooser): TextRun[] {
	if (choose.hasAll(text, null)) return [{ text, face: null }];
	const parts = scriptParts(text);
	// Each stretch of one script: the look's font if it has it all, else the script's face.
	for (let i = 0; i < parts.length;) {
		let j = i;
		while (j < parts.length && parts[j]!.script === parts[i]!.script) j++;
		const stretch = parts.slice(i, j);
		const joined = stretch.map((p) => p.text).join("");
		const face = choose.hasAll(joined, null) ? null : choose.faceFor(parts[i]!.script, joined);
		for (const part of stretch) part.face = face;
		i = j;
	}
	// A face drawing most of the line's letters and able to draw all of it draws all of it (one face per line).
	const allLetters = letters(text).length;
	for (const face of new Map(parts.flatMap((p) => (p.face ? [[p.face.family, p.face] as const] : []))).values()) {
		const own = parts.filter((p) => p.face?.family === face.family).map((p) => p.text);
		if (letters(own.join("")).length * 2 >= allLetters && choose.hasAll(text, face)) return [{ text, face }];
	}
	// Digits, spaces and punctuation a face lacks: the look's font draws them (not fontconfig's pick).
	for (const part of parts)
		if (part.neutral && part.face && !choose.hasAll(part.text, part.face) && choose.hasAll(part.text, null))
			part.face = null;
	const out: TextRun[] = [];
	for (const part of parts) {
		const last = out.at(-1);
		if (last && last.face?.family === part.face?.family) last.text += part.text;
		else out.push({ text: part.text, face: part.face });
	}
	return out;
}

function makeFonts(fontId: CaptionFontId, region: CjkRegion): CaptionFonts {
	const look = CAPTION_FONTS.find((f) => f.id === fontId) ?? CAPTION_FONTS[0];
	const lookEm = fontFile(look.file).emPerSize;
	const choose = chooser(look.file, region);
	// Karaoke writes a page's lines once per word: the same lines, many times.
	const memo = new Map<string, TextRun[]>();
	const runs = (text: string) => {
		let found = memo.get(text);
		if (!found) {
			if (memo.size > 5000) memo.clear();
			found = faceRuns(text, choose);
			memo.set(text, found);
		}
		return found;
	};
	return {
		family: look.family,
		bold: look.bold,
		runs,
		width(text, fontSize) {
			let px = 0;
			for (const run of runs(text)) {
				if (!run.face) {
					px += textWidth(run.text, fontSize) * look.widthFactor;
					continue;
				}
				// Real advances of the fallback face at the look's em (shaping only narrows Arabic and Indic text).
				const face = fontFile(run.face.file);
				let em = 0;
				for (const ch of run.text) {
					const cp = ch.codePointAt(0)!;
					if (INVISIBLE.test(ch) && ch !== " ") continue;
					em += face.has(cp) ? face.advance(cp) : textWidth(ch, 1);
				}
				px += em * fontSize * lookEm;
			}
			return px;
		},
		sizeFor(face, fontSize) {
			return Math.round((fontSize * lookEm) / fontFile(face.file).emPerSize);
		},
	};
}

/**
 * Width of `text` in pixels, estimated from DejaVu Sans Bold's advances (em fractions by character
 * class). Errs wide, so a line never runs off the frame. Combining marks take no room.
 */
export function textWidth(text: string, fontSize: number): number {
	let em = 0;
	for (const ch of text) {
		if (/\s/.test(ch)) em += 0.35;
		else if (/[\p{Mn}\p{Me}\p{Default_Ignorable_Code_Point}]/u.test(ch)) em += 0;
		else if (/[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60]/u.test(ch)) em += 1.0;
		else if (/[A-Z0-9MW@%&]/.test(ch)) em += 0.78;
		else if (/[iljtf.,:;'!|]/.test(ch)) em += 0.38;
		else em += 0.66;
	}
	return em * fontSize;
}
