/**
 * The caption looks as a viewer sees them, read back from decoded frames of clips the tier renders
 * (test/clip-harness.ts, media generated here): each preset's text where its position puts it while
 * words are spoken and nothing in pauses, the highlight box under the spoken word and moving with
 * it, both colours of two-color, the emoji drawn with real glyphs above the page, the lower third
 * left-aligned in the lower third with its bar, a workspace's overrides (font, colours, position),
 * every font installed and distinct, and the preview job's PNG.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	applyOverrides,
	CAPTION_FONTS,
	CaptionPreviewRequest,
	EMOJI_FONT,
	presetLook,
	type CaptionLook,
	type CaptionPresetId,
	type Word,
} from "@clipforge/contract";
import { buildAssDocument } from "../src/captions/ass-document.ts";
import { placementOf } from "../src/captions/style.ts";
import { captionPreview } from "../src/media/caption-preview.ts";
import { ACCENT_EMOJI, emojiFor } from "../src/captions/emoji.ts";
import { layoutFor } from "../src/framing/layout.ts";
import { serveDirectory, type FileServer } from "../../../scripts/serve-files.ts";
import { clipHarness, ffmpeg, type ClipHarness } from "./clip-harness.ts";
import { frameAt, isHighlight, isWhite, pixelsIn, type Frame, type Pixel, type Region } from "./frames.ts";

const SECONDS = 6;
/** Two phrases with a 2 s pause; "money" and "idea" are emoji keywords. */
const WORDS: Word[] = [
	{ word: "Save", start: 0.5, end: 0.9 },
	{ word: "your", start: 1.0, end: 1.4 },
	{ word: "money", start: 1.5, end: 1.8 },
	{ word: "today.", start: 1.9, end: 2.4 },
	{ word: "Great", start: 4.4, end: 4.9 },
	{ word: "idea", start: 5.0, end: 5.5 },
];

let tier: ClipHarness;
beforeAll(async () => {
	tier = await clipHarness("looks");
	ffmpeg(
		"-f",
		"lavfi",
		"-i",
		`color=c=0x202830:s=1280x720:r=25:d=${SECONDS}`,
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
});
afterAll(() => tier?.close());

const layout = layoutFor("9:16", null);
const band = (y: number, half = 150, x0 = 0, x1 = 1080): Region => ({ x0, y0: y - half, x1, y1: y + half });
const BOTTOM = band(layout.captionY);
const isPurple: Pixel = (r, g, b) => r > 100 && r < 190 && g < 90 && b > 170;
const isBlackish: Pixel = (r, g, b) => r < 20 && g < 20 && b < 24;

async function renderLook(look: CaptionLook): Promise<string> {
	const { video } = await tier.render("plain.mp4", { end: SECONDS, captions: { look, words: WORDS } });
	return video;
}
const preset = (id: CaptionPresetId) => renderLook(presetLook(id));

describe("preset looks in rendered clips", () => {
	const videos = new Map<string, string>();
	beforeAll(async () => {
		for (const id of [
			"bold-outline",
			"boxed",
			"highlight-box",
			"two-color",
			"emoji-accents",
			"minimal-lower-third",
		] as const)
			videos.set(id, await preset(id));
	}, 300_000);

	it("every centred preset draws its text in the bottom safe area while words are spoken, nothing in the pause", () => {
		for (const id of ["bold-outline", "boxed", "highlight-box", "two-color", "emoji-accents"]) {
			const video = videos.get(id)!;
			for (const t of [1.2, 4.7])
				expect(pixelsIn(frameAt(video, t), BOTTOM, isWhite).count, `${id} t=${t}`).toBeGreaterThan(300);
			for (const t of [0.2, 3.2])
				expect(
					pixelsIn(frameAt(video, t), { x0: 0, y0: 0, x1: 1080, y1: 1920 }, isWhite).count,
					`${id} t=${t}`,
				).toBe(0);
			// Centred: the text's middle is the frame's middle.
			const text = pixelsIn(frameAt(video, 1.2), BOTTOM, isWhite);
			expect(Math.abs((text.minX + text.maxX) / 2 - 540), id).toBeLessThan(60);
		}
	});

	it("bold-outline: large upper-case chunks of at most three words on a heavy black outline", () => {
		const frame = frameAt(videos.get("bold-outline")!, 1.2);
		const white = pixelsIn(frame, BOTTOM, isWhite);
		const outline = pixelsIn(frame, BOTTOM, isBlackish);
		expect(outline.count).toBeGreaterThan(white.count * 0.8);
		// Fewer words than karaoke's page, each bigger: the chunk is narrower than the frame's safe width.
		expect(white.maxX - white.minX).toBeLessThan(940);
	});

	it("boxed: a dark box stands behind the text, and is gone with it", () => {
		const video = videos.get("boxed")!;
		const spoken = pixelsIn(frameAt(video, 1.2), BOTTOM, isBlackish);
		expect(spoken.count).toBeGreaterThan(20_000);
		expect(pixelsIn(frameAt(video, 3.2), BOTTOM, isBlackish).count).toBe(0);
		const text = pixelsIn(frameAt(video, 1.2), BOTTOM, isWhite);
		expect(spoken.minX).toBeLessThan(text.minX);
		expect(spoken.maxX).toBeGreaterThan(text.maxX);
	});

	it("highlight-box: one box of the highlight colour sits under the spoken word and moves with it in reading order", () => {
		const video = videos.get("highlight-box")!;
		const boxes = [0.7, 1.2, 1.65, 2.2].map((t) => ({
			t,
			box: pixelsIn(frameAt(video, t), BOTTOM, isPurple),
			frame: frameAt(video, t),
		}));
		for (const { t, box, frame } of boxes) {
			expect(box.count, `t=${t}`).toBeGreaterThan(2000);
			// The word is drawn on the box: white text inside the box's span, on its rows.
			const inside = pixelsIn(
				frame,
				{
					x0: box.minX,
					y0: Math.round(box.centroidY) - 30,
					x1: box.maxX + 1,
					y1: Math.round(box.centroidY) + 30,
				},
				isWhite,
			);
			expect(inside.count, `t=${t}`).toBeGreaterThan(150);
		}
		for (let i = 1; i < boxes.length; i++) {
			const [before, after] = [boxes[i - 1]!.box, boxes[i]!.box];
			const nextLine = after.centroidY > before.centroidY + 30;
			const rightwards =
				Math.abs(after.centroidY - before.centroidY) < 30 && after.centroidX > before.centroidX + 40;
			expect(nextLine || rightwards, `box ${i}`).toBe(true);
		}
		// Only the spoken word is boxed: a fraction of the line's width.
		const line = pixelsIn(boxes[1]!.frame, BOTTOM, (r, g, b) => isWhite(r, g, b) || isPurple(r, g, b));
		expect(boxes[1]!.box.maxX - boxes[1]!.box.minX).toBeLessThan((line.maxX - line.minX) * 0.5);
	});

	it("two-color: the page's first line in the text colour, its second in the highlight colour", () => {
		const frame = frameAt(videos.get("two-color")!, 1.2);
		const white = pixelsIn(frame, BOTTOM, isWhite);
		const yellow = pixelsIn(frame, BOTTOM, isHighlight);
		expect(white.count).toBeGreaterThan(500);
		expect(yellow.count).toBeGreaterThan(500);
		expect(yellow.centroidY).toBeGreaterThan(white.centroidY + 40);
	});

	it("emoji-accents: the keyword's emoji pops up above the page from the keyword on, in real glyphs", () => {
		const video = videos.get("emoji-accents")!;
		const above: Region = { x0: 300, y0: layout.captionY - 330, x1: 780, y1: layout.captionY - 60 };
		// "money" is spoken from 1.5 s: no emoji before, 💰 after; "idea" (💡) on the second page.
		expect(pixelsIn(frameAt(video, 1.2), above, isHighlight).count).toBe(0);
		const money = mask(frameAt(video, 1.7), above, isHighlight);
		const idea = mask(frameAt(video, 5.2), above, isHighlight);
		expect(money.lit).toBeGreaterThan(250);
		expect(idea.lit).toBeGreaterThan(250);
		// Missing glyphs would be drawn as identical boxes ("tofu"): real ones differ.
		let differing = 0;
		for (let i = 0; i < money.bits.length; i++) differing += money.bits[i] !== idea.bits[i] ? 1 : 0;
		expect(differing / money.lit).toBeGreaterThan(0.3);
	});

	it("minimal-lower-third: small left-aligned text in the lower third, clear of the right-hand buttons, with a bar at its left", () => {
		const video = videos.get("minimal-lower-third")!;
		const frame = frameAt(video, 1.2);
		const text = pixelsIn(frame, { x0: 0, y0: 0, x1: 1080, y1: 1920 }, isWhite);
		expect(text.count).toBeGreaterThan(300);
		expect(text.centroidY).toBeGreaterThan(1920 * (2 / 3));
		expect(text.centroidY).toBeLessThan(1920 * 0.8);
		expect(text.minX).toBeGreaterThan(1080 * 0.05);
		expect(text.minX).toBeLessThan(1080 * 0.12);
		expect(text.maxX).toBeLessThan(1080 * 0.8);
		const bar = pixelsIn(frame, { x0: 0, y0: 1200, x1: text.minX, y1: 1600 }, isHighlight);
		expect(bar.count).toBeGreaterThan(400);
		expect(bar.maxX).toBeLessThan(text.minX);
		expect(pixelsIn(frameAt(video, 3.2), { x0: 0, y0: 0, x1: 1080, y1: 1920 }, isHighlight).count).toBe(0);
	});
});

describe("a workspace's overrides", () => {
	it("draws the chosen text colour, highlight colour and position", async () => {
		const look = applyOverrides(presetLook("karaoke"), {
			textColor: "#00FF40",
			highlightColor: "#FF2020",
			position: "top",
		});
		const video = await renderLook(look);
		const frame = frameAt(video, 1.2);
		const top = band(placementOf(look, layout).y);
		expect(pixelsIn(frame, top, (r, g, b) => g > 200 && r < 90 && b < 120).count).toBeGreaterThan(500);
		expect(pixelsIn(frame, top, (r, g, b) => r > 200 && g < 90 && b < 90).count).toBeGreaterThan(150);
		expect(pixelsIn(frame, BOTTOM, (r, g) => g > 200 && r < 90).count).toBe(0);
		expect(placementOf(look, layout).y).toBeLessThan(1920 * 0.35);
	});

	it("middle sits at half height", () => {
		expect(placementOf(applyOverrides(presetLook("boxed"), { position: "middle" }), layout).y).toBe(960);
		expect(placementOf(presetLook("boxed"), layoutFor("9:16", 40)).y).toBe(layoutFor("9:16", 40).main.height);
	});
});

describe("fonts", () => {
	const work = mkdtempSync(join(tmpdir(), "fonts-"));
	afterAll(() => rmSync(work, { recursive: true, force: true }));

	/** The word "Quality" drawn in a look's font on black, as a mask. */
	function fontMask(look: CaptionLook): Uint8Array {
		const ass = join(work, `${look.font}.ass`);
		writeFileSync(
			ass,
			buildAssDocument({
				layout,
				captions: { look, words: [{ word: "Quality 123", start: 0, end: 2 }] },
				hookTitle: null,
				duration: 2,
			}),
		);
		const out = join(work, `${look.font}.png`);
		ffmpeg(
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
		);
		const { rgb } = frameAt(out, 0);
		return Uint8Array.from({ length: rgb.length / 3 }, (_, i) => (rgb[i * 3]! > 200 ? 1 : 0));
	}

	it("every look font and the emoji font are installed where the contract says", () => {
		for (const font of [...CAPTION_FONTS, EMOJI_FONT])
			expect(existsSync(font.file), `${font.file} (${font.debianPackage})`).toBe(true);
	});

	it("each font draws its own face (libass did not fall back to another)", () => {
		const masks = CAPTION_FONTS.map((f) => ({
			id: f.id,
			mask: fontMask({ ...presetLook("sentence"), font: f.id, outline: 0 }),
		}));
		for (let a = 0; a < masks.length; a++) {
			for (let b = a + 1; b < masks.length; b++) {
				const [x, y] = [masks[a]!.mask, masks[b]!.mask];
				let differing = 0;
				let lit = 0;
				for (let i = 0; i < x.length; i++) {
					differing += x[i] !== y[i] ? 1 : 0;
					lit += x[i]!;
				}
				expect(differing / lit, `${masks[a]!.id} vs ${masks[b]!.id}`).toBeGreaterThan(0.2);
			}
		}
	});

	it("every accent emoji has a glyph in Symbola, and keywords find theirs", () => {
		for (const emoji of ACCENT_EMOJI) {
			const code = emoji.codePointAt(0)!.toString(16);
			expect(execFileSync("fc-list", [`:charset=${code}`, "family"]).toString(), `U+${code}`).toContain(
				"Symbola",
			);
		}
		expect(emojiFor("Money!")).toBe("\u{1F4B0}");
		expect(emojiFor("ideas")).toBe("\u{1F4A1}");
		expect(emojiFor("working")).toBe("\u{1F4BC}");
		expect(emojiFor("the")).toBeNull();
	});
});

describe("preview job", () => {
	let sink: FileServer;
	let dir: string;
	beforeAll(async () => {
		dir = mkdtempSync(join(tmpdir(), "preview-sink-"));
		sink = await serveDirectory(dir, { acceptPut: true });
	});
	afterAll(async () => {
		await sink.close();
		rmSync(dir, { recursive: true, force: true });
	});

	it("writes one PNG of the sample words in the look, 9:16, with the spoken word highlighted", async () => {
		const request = CaptionPreviewRequest.parse({ look: presetLook("karaoke"), putUrl: `${sink.url}/karaoke.png` });
		const result = await captionPreview(request, () => {}, AbortSignal.timeout(60_000));
		expect(result).toMatchObject({ width: 360, height: 640 });
		const png = join(dir, "karaoke.png");
		expect(readFileSync(png).subarray(1, 4).toString()).toBe("PNG");
		const frame = frameAt(png, 0);
		const y = Math.round((layout.captionY * 360) / 1080);
		expect(pixelsIn(frame, { x0: 0, y0: y - 50, x1: 360, y1: y + 50 }, isWhite).count).toBeGreaterThan(100);
		expect(pixelsIn(frame, { x0: 0, y0: y - 50, x1: 360, y1: y + 50 }, isHighlight).count).toBeGreaterThan(20);
	});
});

function mask(frame: Frame, region: Region, match: Pixel): { bits: Uint8Array; lit: number } {
	const w = region.x1 - region.x0;
	const bits = new Uint8Array(w * (region.y1 - region.y0));
	let lit = 0;
	for (let y = region.y0; y < region.y1; y++) {
		for (let x = region.x0; x < region.x1; x++) {
			const i = (y * frame.width + x) * 3;
			const on = match(frame.rgb[i]!, frame.rgb[i + 1]!, frame.rgb[i + 2]!) ? 1 : 0;
			bits[(y - region.y0) * w + (x - region.x0)] = on;
			lit += on;
		}
	}
	return { bits, lit };
}
