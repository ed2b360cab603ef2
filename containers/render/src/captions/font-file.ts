/**
 * What the caption code needs to know about an installed font file, read from its own tables
 * (TrueType/OpenType, or the first face of a collection): which characters it has (`cmap`), how
 * wide each one is (`hmtx`), and how libass sizes it. libass (like VSFilter) makes a font's
 * `usWinAscent + usWinDescent` equal the font size, so two faces at the same `\fs` can draw
 * letters of quite different sizes: `emPerSize` is the em (in font-size units) a face gets.
 *
 * Files are read once per process and kept (the look fonts are 0.1-0.7 MB, the CJK collection is
 * read only when CJK text is drawn).
 */
import { readFileSync } from "node:fs";

export interface FontFile {
	/** Whether the face has a glyph for this code point. */
	has(codePoint: number): boolean;
	/** Advance width of the code point's glyph in ems (0 when missing). */
	advance(codePoint: number): number;
	/** The em's size as a fraction of the ASS font size (unitsPerEm / (winAscent + winDescent)). */
	emPerSize: number;
}

const cache = new Map<string, FontFile>();

export function fontFile(path: string): FontFile {
	let font = cache.get(path);
	if (!font) {
		font = parseFont(readFileSync(path));
		cache.set(path, font);
	}
	return font;
}

export function parseFont(bytes: Buffer): FontFile {
	// A collection ('ttcf'): its first face's offset table.
	const base = bytes.toString("latin1", 0, 4) === "ttcf" ? bytes.readUInt32BE(12) : 0;
	const tables = new Map<string, number>();
	const count = bytes.readUInt16BE(base + 4);
	for (let i = 0; i < count; i++) {
		const record = base + 12 + i * 16;
		tables.set(bytes.toString("latin1", record, record + 4), bytes.readUInt32BE(record + 8));
	}
	const table = (tag: string) => {
		const offset = tables.get(tag);
		if (offset === undefined) throw new Error(`font has no ${tag} table`);
		return offset;
	};
	const unitsPerEm = bytes.readUInt16BE(table("head") + 18);
	const os2 = table("OS/2");
	const winHeight = bytes.readUInt16BE(os2 + 74) + bytes.readUInt16BE(os2 + 76);
	const hhea = table("hhea");
	const hMetrics = bytes.readUInt16BE(hhea + 34);
	const hmtx = table("hmtx");
	const glyphs = readCmap(bytes, table("cmap"));
	const advanceOf = (glyph: number) => bytes.readUInt16BE(hmtx + 4 * Math.min(glyph, hMetrics - 1)) / unitsPerEm;
	return {
		has: (cp) => (glyphs.get(cp) ?? 0) !== 0,
		advance: (cp) => {
			const glyph = glyphs.get(cp) ?? 0;
			return glyph ? advanceOf(glyph) : 0;
		},
		emPerSize: unitsPerEm / winHeight,
	};
}

/** The Unicode cmap subtable (format 12 preferred, else 4) as code point → glyph id. */
function readCmap(bytes: Buffer, cmap: number): Map<number, number> {
	const count = bytes.readUInt16BE(cmap + 2);
	let format4 = -1;
	let format12 = -1;
	for (let i = 0; i < count; i++) {
		const record = cmap + 4 + i * 8;
		const platform = bytes.readUInt16BE(record);
		const encoding = bytes.readUInt16BE(record + 2);
		const offset = cmap + bytes.readUInt32BE(record + 4);
		const format = bytes.readUInt16BE(offset);
		const unicode = platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10));
		if (!unicode) continue;
		if (format === 12 && format12 < 0) format12 = offset;
		if (format === 4 && format4 < 0) format4 = offset;
	}
	const map = new Map<number, number>();
	if (format12 >= 0) {
		const groups = bytes.readUInt32BE(format12 + 12);
		for (let g = 0; g < groups; g++) {
			const at = format12 + 16 + g * 12;
			const [first, last, glyph] = [
				bytes.readUInt32BE(at),
				bytes.readUInt32BE(at + 4),
				bytes.readUInt32BE(at + 8),
			];
			for (let cp = first; cp <= last; cp++) map.set(cp, glyph + cp - first);
		}
		return map;
	}
	if (format4 < 0) throw new Error("font has no Unicode cmap");
	readFormat4(bytes, format4, map);
	return map;
}

/** A format 4 cmap subtable (segments of the Basic Multilingual Plane) into `map`. */
function readFormat4(bytes: Buffer, format4: number, map: Map<number, number>): void {
	const segments = bytes.readUInt16BE(format4 + 6) / 2;
	const ends = format4 + 14;
	const starts = ends + segments * 2 + 2;
	const deltas = starts + segments * 2;
	const rangeOffsets = deltas + segments * 2;
	for (let s = 0; s < segments; s++) {
		const end = bytes.readUInt16BE(ends + s * 2);
		const start = bytes.readUInt16BE(starts + s * 2);
		const delta = bytes.readInt16BE(deltas + s * 2);
		const rangeOffset = bytes.readUInt16BE(rangeOffsets + s * 2);
		for (let cp = start; cp <= end && cp !== 0xffff; cp++) {
			let glyph: number;
			if (rangeOffset === 0) glyph = (cp + delta) & 0xffff;
			else {
				const at = rangeOffsets + s * 2 + rangeOffset + (cp - start) * 2;
				glyph = bytes.readUInt16BE(at);
				if (glyph !== 0) glyph = (glyph + delta) & 0xffff;
			}
			if (glyph !== 0) map.set(cp, glyph);
		}
	}
}
