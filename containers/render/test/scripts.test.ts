/**
 * Captions in every script, read back: one short clip per script (1:1, 4 s, x264 ultrafast, from a
 * generated dark source), each in a different look so that every preset look is drawn at least
 * once, and the captions read back from the clip's frames with tesseract and its Debian language
 * packs (`scripts/install-deps.sh --for-tests`). The frames are prepared as docs/rendering.md
 * says: the caption band cropped, scaled so letters are about 30 px high, bright text (white or
 * yellow) turned black on white; one frame per page the captions show, stacked into one image, one
 * tesseract run per clip.
 *
 * The reading is compared with the words as the script writes them, as a character error rate
 * (edit distance / length, spaces included; line breaks count as spaces only where the script has
 * them) bounded per script: measured, then a margin (docs/rendering.md lists both). Right-to-left
 * text read in the wrong word order, spaces between CJK or Thai tokens, a wrong capital, tofu or a
 * clipped line all fail it. Arabic karaoke and Hebrew highlight-box are also checked for the highlight on the
 * spoken word, right to left.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CAPTION_PRESET_IDS, presetLook, type CaptionPresetId, type Word } from "@clipforge/contract";
import { buildAssDocument } from "../src/captions/ass-document.ts";
import { placementOf } from "../src/captions/style.ts";
import { layoutFor } from "../src/framing/layout.ts";
import { clipHarness, ffmpeg, type ClipHarness } from "./clip-harness.ts";
import { frameAt, pixelsIn, type Pixel } from "./frames.ts";

// Before the tier's modules load (they read WORK_DIR once): this file's renders in a folder of its own.
const workDir = await vi.hoisted(async () => {
	const { mkdtempSync } = await import("node:fs");
	const { tmpdir } = await import("node:os");
	process.env.WORK_DIR = mkdtempSync(`${tmpdir()}/scripts-work-`);
	return process.env.WORK_DIR;
});

const run = promisify(execFile);
const SECONDS = 4;
const layout = layoutFor("1:1", null);

interface Case {
	name: string;
	/** tesseract's language packs for it. */
	lang: string;
	look: CaptionPresetId;
	/** Caption words as the transcript has them (Whisper's tokens for CJK and Thai). */
	tokens: string[];
	/** What a reader should read (the caption words as written, upper-cased by the look where it does). */
	expected: string;
	hook?: { title: string; expected: string };
	/** The character error rate allowed (measured value in docs/rendering.md, plus a margin). */
	maxCer: number;
}

const CASES: Case[] = [
	{
		name: "German (upper case, ß)",
		lang: "deu",
		look: "two-color",
		tokens: "Die große Straße führt über grüne Äcker".split(" "),
		expected: "DIE GROSSE STRASSE FÜHRT ÜBER GRÜNE ÄCKER",
		// Measured 0.
		maxCer: 0.05,
	},
	{
		name: "Spanish and French",
		lang: "spa+fra",
		look: "minimal-lower-third",
		tokens: "El niño comió piñas en Málaga. Où êtes-vous, garçon ?".split(" "),
		expected: "El niño comió piñas en Málaga. Où êtes-vous, garçon ?",
		// Measured 0.
		maxCer: 0.05,
	},
	{
		name: "Turkish (upper case, dotted i)",
		lang: "tur",
		look: "word-by-word",
		tokens: "İstanbul'da ılık bir gün geçirdik".split(" "),
		expected: "İSTANBUL'DA ILIK BİR GÜN GEÇİRDİK",
		// Measured 0.
		maxCer: 0.05,
	},
	{
		name: "Hindi (Devanagari)",
		lang: "hin",
		look: "boxed",
		tokens: "मैंने आज एक नई किताब पढ़ी और मुझे बहुत पसंद आई".split(" "),
		expected: "मैंने आज एक नई किताब पढ़ी और मुझे बहुत पसंद आई",
		// Measured 0.
		maxCer: 0.05,
	},
	{
		name: "Arabic (right to left, numbers)",
		lang: "ara",
		look: "karaoke",
		tokens: "اشتريت 3 كتب في عام 2024 وكانت رائعة جدا".split(" "),
		expected: "اشتريت 3 كتب في عام 2024 وكانت رائعة جدا",
		hook: { title: "كتب عام 2024", expected: "كتب عام 2024" },
		// Measured 0.075, hook 0.083 (tesseract reads a number opening an RTL line as its last digit).
		maxCer: 0.15,
	},
	{
		name: "Hebrew (right to left, numbers)",
		lang: "heb",
		look: "highlight-box",
		tokens: "קניתי 3 ספרים בשנת 2024 והם היו נהדרים".split(" "),
		expected: "קניתי 3 ספרים בשנת 2024 והם היו נהדרים",
		// Measured 0.079 (the same).
		maxCer: 0.15,
	},
	{
		name: "Japanese (tokens, no spaces)",
		lang: "jpn",
		look: "sentence",
		tokens: "去年|の|春|、|姉|に|説得|されて|市|の|ハ|ーフマ|ラソン|に|出る|こと|に|なった|。".split("|"),
		expected: "去年の春、姉に説得されて市のハーフマラソンに出ることになった。",
		hook: { title: "去年 の 春 、 姉 に 説得 されて", expected: "去年の春、姉に説得されて" },
		// Measured 0, hook 0.
		maxCer: 0.05,
	},
	{
		name: "Chinese (tokens, no spaces)",
		lang: "chi_sim",
		look: "emoji-accents",
		tokens: "我们|今天|去|公园|散步|了|，|天气|非常|好|。".split("|"),
		expected: "我们今天去公园散步了，天气非常好。",
		// Measured 0.059 (a space read before "，").
		maxCer: 0.12,
	},
	{
		name: "Thai (tokens, breaks at words)",
		lang: "tha",
		look: "bold-outline",
		tokens: "ผม|ชอบ|กิน|ข้|าว|ผัด|มาก|เพราะ|อร่อย|ที่สุด".split("|"),
		expected: "ผมชอบกินข้าวผัดมากเพราะอร่อยที่สุด",
		// Measured 0.
		maxCer: 0.05,
	},
];

/** Tokens spread over the clip: each spoken for 80% of its share, the first at 0.25 s. */
function timed(tokens: string[]): Word[] {
	const share = (SECONDS - 0.5) / tokens.length;
	return tokens.map((word, i) => ({ word, start: 0.25 + i * share, end: 0.25 + i * share + share * 0.8 }));
}

/** Levenshtein distance over code points. */
export function editDistance(a: string, b: string): number {
	const [x, y] = [[...a], [...b]];
	let row = Array.from({ length: y.length + 1 }, (_, j) => j);
	for (let i = 1; i <= x.length; i++) {
		const next = [i];
		for (let j = 1; j <= y.length; j++)
			next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
		row = next;
	}
	return row[y.length]!;
}

/**
 * Character error rate of a reading against the expected text, spaces included: a line break is a
 * space in a text written with spaces and nothing in one written without (Chinese, Japanese, Thai),
 * so a space drawn between tokens there counts as an error.
 */
export function cer(read: string, expected: string): number {
	const spaceless = !/\s/u.test(expected.trim());
	const squash = (s: string) =>
		s
			.normalize("NFC")
			.trim()
			.replace(/\s*\n\s*/gu, spaceless ? "" : " ")
			.replace(/\s+/gu, " ");
	return editDistance(squash(read), squash(expected)) / [...squash(expected)].length;
}

/** The caption text's own events (not the lower third's bar, a drawing), with their visible text. */
function captionEvents(c: Case): { start: number; end: number; text: string }[] {
	const ass = buildAssDocument({
		layout,
		captions: { look: presetLook(c.look), words: timed(c.tokens) },
		hookTitle: null,
		duration: SECONDS,
	});
	const time = (s: string) => s.split(":").reduce((t, part) => t * 60 + Number(part), 0);
	return ass
		.split("\n")
		.filter((l) => l.startsWith("Dialogue: 0,") && !l.includes("\\p1"))
		.map((l) => {
			const fields = l.split(",");
			const text = fields
				.slice(9)
				.join(",")
				.replace(/\{[^}]*\}/g, "");
			return { start: time(fields[1]!), end: time(fields[2]!), text };
		});
}

/** A moment each distinct page (what the captions show) is fully on screen. */
function pageMoments(c: Case): number[] {
	const moments: number[] = [];
	let previous = "";
	for (const e of captionEvents(c)) {
		if (e.text === previous) continue;
		previous = e.text;
		// After the pop-in (100 ms), inside the event.
		moments.push(Math.min(e.start + 0.15, (e.start + e.end) / 2));
	}
	return moments;
}

let tier: ClipHarness;
let work: string;
const videos = new Map<string, string>();
const readings = new Map<string, { captions: string; hook: string | null }>();

/** Prepares frames of `video` at `moments` (the band around y, from x0) and reads them in one tesseract run. */
async function readBack(
	video: string,
	moments: number[],
	band: { x0: number; y0: number; height: number },
	letterPx: number,
	lang: string,
	name: string,
): Promise<string> {
	const scale = 30 / letterPx;
	const frames: string[] = [];
	for (const [i, t] of moments.entries()) {
		const png = join(work, `${name}-${i}.png`);
		await run("ffmpeg", [
			"-v",
			"error",
			"-y",
			"-ss",
			t.toFixed(3),
			"-i",
			video,
			"-frames:v",
			"1",
			"-vf",
			`crop=${1080 - band.x0}:${band.height}:${band.x0}:${band.y0},scale=iw*${scale.toFixed(3)}:-2:flags=area,format=gray,lutyuv=y='if(gt(val,190),0,255)'`,
			"-update",
			"1",
			png,
		]);
		frames.push(png);
	}
	const stacked = join(work, `${name}.png`);
	if (frames.length === 1) execFileSync("cp", [frames[0]!, stacked]);
	else ffmpeg(...frames.flatMap((f) => ["-i", f]), "-filter_complex", `vstack=inputs=${frames.length}`, stacked);
	const { stdout } = await run("tesseract", [stacked, "-", "-l", lang, "--psm", "6"], {
		env: { ...process.env, OMP_THREAD_LIMIT: "1" },
	});
	return stdout;
}

async function renderAndRead(c: Case): Promise<void> {
	const look = presetLook(c.look);
	const { video } = await tier.render("plain.mp4", {
		end: SECONDS,
		aspectRatio: "1:1",
		captions: { look, words: timed(c.tokens) },
		hookTitle: c.hook?.title ?? null,
	});
	videos.set(c.name, video);
	const placement = placementOf(look, layout);
	const half = Math.round(placement.fontSize * (look.maxLines * 0.9 + 0.6));
	const captions = await readBack(
		video,
		pageMoments(c),
		{
			x0: placement.alignment === 4 ? placement.x - 4 : 0,
			y0: Math.max(0, placement.y - half),
			height: Math.min(1080 - Math.max(0, placement.y - half), 2 * half),
		},
		placement.fontSize,
		c.lang,
		c.name.replace(/\W+/g, "-"),
	);
	const hook = c.hook
		? await readBack(
				video,
				[1.0],
				{ x0: 0, y0: layout.hookY - 20, height: Math.round(layout.hookFontSize * 4) },
				layout.hookFontSize,
				c.lang,
				`${c.name.replace(/\W+/g, "-")}-hook`,
			)
		: null;
	readings.set(c.name, { captions, hook });
}

beforeAll(async () => {
	work = mkdtempSync(join(tmpdir(), "scripts-read-"));
	if (process.env.KEEP_READINGS) console.log(`prepared frames in ${work}`);
	tier = await clipHarness("scripts");
	ffmpeg(
		"-f",
		"lavfi",
		"-i",
		`color=c=0x202830:s=320x320:r=25:d=${SECONDS}`,
		"-f",
		"lavfi",
		"-i",
		`anullsrc=r=48000:cl=mono:d=${SECONDS}`,
		"-c:v",
		"libx264",
		"-preset",
		"ultrafast",
		"-pix_fmt",
		"yuv420p",
		"-c:a",
		"aac",
		"-shortest",
		join(tier.media, "plain.mp4"),
	);
	// Two at a time: one encode or tesseract run per core.
	const queue = [...CASES];
	await Promise.all(
		[0, 1].map(async () => {
			for (let c = queue.shift(); c; c = queue.shift()) await renderAndRead(c);
		}),
	);
}, 120_000);
afterAll(async () => {
	await tier?.close();
	if (!process.env.KEEP_READINGS) rmSync(work, { recursive: true, force: true });
	rmSync(workDir, { recursive: true, force: true });
});

describe("captions in every script, read back from rendered clips", () => {
	it("draws every preset look at least once across the scripts", () => {
		expect(new Set(CASES.map((c) => c.look))).toEqual(new Set(CAPTION_PRESET_IDS));
	});

	for (const c of CASES) {
		it(`${c.name} in ${c.look}: read back within a CER of ${c.maxCer}`, () => {
			const reading = readings.get(c.name)!;
			const rate = cer(reading.captions, c.expected);
			if (process.env.PRINT_CER)
				console.log(`CER ${c.name}: ${rate.toFixed(3)} ${JSON.stringify(reading.captions)}`);
			expect(rate, reading.captions).toBeLessThanOrEqual(c.maxCer);
			if (c.hook) {
				const hookRate = cer(reading.hook!, c.hook.expected);
				if (process.env.PRINT_CER)
					console.log(`CER ${c.name} hook: ${hookRate.toFixed(3)} ${JSON.stringify(reading.hook)}`);
				expect(hookRate, reading.hook!).toBeLessThanOrEqual(c.maxCer);
			}
		});
	}
});

describe("the spoken word's highlight, right to left", () => {
	const isYellow: Pixel = (r, g, b) => r > 190 && g > 160 && b < 110 && r - b > 110;
	const isPurple: Pixel = (r, g, b) => r > 100 && r < 190 && g < 90 && b > 170;
	// Frames decoded at half size (540x540).
	const placement = placementOf(presetLook("karaoke"), layout);
	const band = { x0: 0, y0: placement.y / 2 - 75, x1: 540, y1: placement.y / 2 + 75 };

	for (const [name, match] of [
		["Arabic (right to left, numbers)", isYellow],
		["Hebrew (right to left, numbers)", isPurple],
	] as const) {
		it(`${name}: moves right to left along each line, word by word, numbers in their place`, () => {
			const words = timed(CASES.find((c) => c.name === name)!.tokens);
			const video = videos.get(name)!;
			const events = captionEvents(CASES.find((c) => c.name === name)!);
			const pageOf = (w: Word) => events.find((e) => Math.abs(e.start - w.start) < 0.02)!.text;
			const spots = words.map((w) => pixelsIn(frameAt(video, (w.start + w.end) / 2, 540), band, match));
			for (const spot of spots) expect(spot.count).toBeGreaterThan(40);
			// Each word after one on the same line (same page, same height) sits left of it; the
			// pairs include a number before and after a word ("3", "2024").
			let pairs = 0;
			for (let i = 1; i < spots.length; i++) {
				const [before, after] = [spots[i - 1]!, spots[i]!];
				if (pageOf(words[i]!) !== pageOf(words[i - 1]!)) continue;
				if (Math.abs(after.centroidY - before.centroidY) > 15) continue;
				expect(after.centroidX, `word ${i}`).toBeLessThan(before.centroidX - 20);
				pairs++;
			}
			expect(pairs).toBeGreaterThanOrEqual(5);
		});
	}
});
