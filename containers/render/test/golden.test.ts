/**
 * Golden screenshots of each caption look (the presets, the hook title, split-screen), kept in
 * test/golden/ for review. Each is rendered here the way a clip is (the same ASS document, libass,
 * layout) over a still picture, and compared with the stored PNG; `UPDATE_GOLDENS=1` rewrites them
 * after a deliberate change of look. No video encode is involved, so the output is deterministic.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildAssDocument } from "../src/captions/ass-document.ts";
import { presetLook, type CaptionPresetId, type Word } from "@clipforge/contract";
import { layoutFor } from "../src/framing/layout.ts";
import { frameAt } from "./frames.ts";

const GOLDEN_DIR = join(import.meta.dirname, "golden");
const FACE = join(import.meta.dirname, "fixtures", "face.png");
const work = mkdtempSync(join(tmpdir(), "golden-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const WORDS: Word[] = [
	{ word: "This", start: 0.4, end: 0.6 },
	{ word: "one", start: 0.65, end: 0.9 },
	{ word: "habit", start: 0.95, end: 1.3 },
	{ word: "changed", start: 1.35, end: 1.7 },
	{ word: "how", start: 1.75, end: 1.9 },
	{ word: "I", start: 1.95, end: 2.0 },
	{ word: "work.", start: 2.05, end: 2.5 },
];
const AT = 1.2;

/** Renders the ASS of a config over a still "speaker" frame at time AT, as a 540x960 PNG. */
function screenshot(
	name: string,
	options: { style: CaptionPresetId | null; hook: string | null; splitRatio: number | null },
): string {
	const layout = layoutFor("9:16", options.splitRatio);
	const ass = join(work, `${name}.ass`);
	writeFileSync(
		ass,
		buildAssDocument({
			layout,
			captions: options.style ? { look: presetLook(options.style), words: WORDS } : null,
			hookTitle: options.hook,
			duration: 10,
		}),
	);
	const out = join(work, `${name}.png`);
	const mainHeight = layout.main.height;
	const background =
		options.splitRatio === null
			? ""
			: `,drawbox=x=0:y=${mainHeight}:w=1080:h=${1920 - mainHeight}:color=0x2f8f5b:t=fill`;
	execFileSync("ffmpeg", [
		"-v",
		"error",
		"-y",
		"-f",
		"lavfi",
		"-i",
		"color=c=0x33414f:s=1080x1920:r=25:d=3",
		"-i",
		FACE,
		"-filter_complex",
		`[1:v]scale=620:620[f];[0:v][f]overlay=x=230:y=${Math.round(mainHeight / 2 - 310)}${background},ass=filename=${ass},scale=540:960:flags=lanczos[v]`,
		"-map",
		"[v]",
		"-ss",
		String(AT),
		"-frames:v",
		"1",
		"-update",
		"1",
		out,
	]);
	return out;
}

function meanDifference(a: string, b: string): number {
	const x = frameAt(a, 0).rgb;
	const y = frameAt(b, 0).rgb;
	if (x.length !== y.length) return Infinity;
	let sum = 0;
	for (let i = 0; i < x.length; i++) sum += Math.abs(x[i]! - y[i]!);
	return sum / x.length;
}

const CASES = [
	{ name: "karaoke", style: "karaoke", hook: null, splitRatio: null },
	{ name: "word-by-word", style: "word-by-word", hook: null, splitRatio: null },
	{ name: "sentence", style: "sentence", hook: null, splitRatio: null },
	{ name: "hook-title", style: "karaoke", hook: "The one habit that changed how I work", splitRatio: null },
	{ name: "split-screen", style: "karaoke", hook: "The one habit that changed how I work", splitRatio: 50 },
	// The preset looks beyond the seed's three (packages/contract/src/looks.ts).
	{ name: "bold-outline", style: "bold-outline", hook: null, splitRatio: null },
	{ name: "boxed", style: "boxed", hook: null, splitRatio: null },
	{ name: "highlight-box", style: "highlight-box", hook: null, splitRatio: null },
	{ name: "two-color", style: "two-color", hook: null, splitRatio: null },
	{ name: "emoji-accents", style: "emoji-accents", hook: null, splitRatio: null },
	{ name: "minimal-lower-third", style: "minimal-lower-third", hook: null, splitRatio: null },
] as const;

describe("golden screenshots", () => {
	for (const c of CASES) {
		it(`${c.name} looks as reviewed (test/golden/${c.name}.png)`, () => {
			const rendered = screenshot(c.name, c);
			const golden = join(GOLDEN_DIR, `${c.name}.png`);
			if (process.env.UPDATE_GOLDENS === "1") {
				mkdirSync(GOLDEN_DIR, { recursive: true });
				execFileSync("cp", [rendered, golden]);
			}
			expect(
				existsSync(golden),
				`${golden} is missing: run UPDATE_GOLDENS=1 npm run test:render and review it`,
			).toBe(true);
			// Identical with the same libass and fonts; a small margin for another freetype build.
			expect(meanDifference(rendered, golden)).toBeLessThan(1.5);
		});
	}
});

describe("scripts other than Latin", () => {
	/** Caption pixels of one word, as a mask (a frame with the word on a flat background). */
	function mask(word: string): Uint8Array {
		const layout = layoutFor("9:16", null);
		const ass = join(work, `w-${Buffer.from(word).toString("hex")}.ass`);
		writeFileSync(
			ass,
			buildAssDocument({
				layout,
				captions: { look: presetLook("sentence"), words: [{ word, start: 0, end: 2 }] },
				hookTitle: null,
				duration: 2,
			}),
		);
		const out = join(work, `w-${Buffer.from(word).toString("hex")}.png`);
		execFileSync("ffmpeg", [
			"-v",
			"error",
			"-y",
			"-f",
			"lavfi",
			"-i",
			"color=c=black:s=1080x1920:d=1",
			"-vf",
			`ass=filename=${ass}`,
			"-frames:v",
			"1",
			"-update",
			"1",
			out,
		]);
		const { rgb } = frameAt(out, 0);
		return Uint8Array.from({ length: rgb.length / 3 }, (_, i) => (rgb[i * 3]! > 200 ? 1 : 0));
	}

	// Missing glyphs are drawn as identical boxes ("tofu"): two different words of the same length
	// would then give the same mask. Real glyphs differ.
	for (const [script, a, b] of [
		["Devanagari", "दिन", "रात"],
		["Chinese", "中文", "日本"],
		["Arabic", "مرحبا", "شكرا"],
		["Thai", "สวัสดี", "ขอบคุณ"],
	] as const) {
		it(`draws ${script} with real glyphs (the Noto fallback fonts are installed)`, () => {
			const [x, y] = [mask(a), mask(b)];
			const lit = x.reduce((n, v) => n + v, 0);
			let differing = 0;
			for (let i = 0; i < x.length; i++) differing += x[i] !== y[i] ? 1 : 0;
			expect(lit).toBeGreaterThan(500);
			expect(differing / lit).toBeGreaterThan(0.3);
		});
	}
});
