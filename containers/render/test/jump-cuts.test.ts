/**
 * Remove silences: a generated clip with known pauses (each word a coloured picture and a 440 Hz
 * tone, black and silent between) is rendered with jump cuts, and comes out shorter by exactly the
 * pauses cut, in sync (each word's colour and tone start together where the cut timeline puts
 * them), with captions on their words; the planning and the ASS timings are checked without media.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { presetLook, type Word } from "@clipforge/contract";
import { buildAssDocument } from "../src/captions/ass-document.ts";
import { jumpCutFilters } from "../src/ffmpeg/clip-args.ts";
import { retime, retimeWords } from "@clipforge/contract";
import { frameRateOf, parseSilences, planJumpCuts } from "../src/render/jump-cuts.ts";
import { layoutFor } from "../src/framing/layout.ts";
import { clipHarness, ffmpeg, type ClipHarness } from "./clip-harness.ts";
import { frameAt, isWhite, pixel, pixelsIn } from "./frames.ts";

const SECONDS = 8;
/** On the 25 fps grid (multiples of 0.04 s): pauses of 2.0 s and 1.52 s, and a short gap of 0.28 s that stays. */
const WORDS: (Word & { colour: string; rgb: [number, number, number] })[] = [
	{ word: "first", start: 0.52, end: 1.32, colour: "0xe01010", rgb: [224, 16, 16] },
	{ word: "second", start: 3.32, end: 4.12, colour: "0x10d010", rgb: [16, 208, 16] },
	{ word: "third", start: 4.4, end: 5.2, colour: "0x1030e0", rgb: [16, 48, 224] },
	{ word: "fourth.", start: 6.72, end: 7.52, colour: "0xd010d0", rgb: [208, 16, 208] },
];
/** What the Worker sends: each long pause minus 0.12 s kept beside its words. */
const PAUSES = [
	{ start: 1.44, end: 3.2 },
	{ start: 5.32, end: 6.6 },
];
const REMOVED = 1.76 + 1.28;

let tier: ClipHarness;
beforeAll(async () => {
	tier = await clipHarness("cuts");
	const boxes = WORDS.map(
		(w) => `drawbox=x=0:y=0:w=iw:h=ih:color=${w.colour}:t=fill:enable='between(t,${w.start},${w.end - 0.001})'`,
	).join(",");
	const tone = WORDS.map((w) => `between(t,${w.start},${w.end})`).join("+");
	ffmpeg(
		"-f",
		"lavfi",
		"-i",
		`color=c=black:s=640x360:r=25:d=${SECONDS}`,
		"-f",
		"lavfi",
		"-i",
		`aevalsrc='0.5*sin(2*PI*440*t)*(${tone})':s=48000:d=${SECONDS}`,
		"-vf",
		boxes,
		"-c:v",
		"libx264",
		"-preset",
		"ultrafast",
		"-pix_fmt",
		"yuv420p",
		"-g",
		"25",
		"-c:a",
		"aac",
		"-b:a",
		"192k",
		"-shortest",
		join(tier.media, "talk.mp4"),
	);
});
afterAll(() => tier?.close());

const silences = (path: string, minimum: number) => {
	const log = spawnSync("ffmpeg", [
		"-hide_banner",
		"-nostats",
		"-i",
		path,
		"-map",
		"0:a:0",
		"-af",
		`silencedetect=noise=-35dB:d=${minimum}`,
		"-f",
		"null",
		"-",
	]).stderr.toString();
	return parseSilences(log, Infinity);
};
const streamDuration = (path: string, stream: "v" | "a") =>
	Number(
		execFileSync("ffprobe", [
			"-v",
			"error",
			"-select_streams",
			`${stream}:0`,
			"-show_entries",
			"stream=duration",
			"-of",
			"csv=p=0",
			path,
		])
			.toString()
			.trim(),
	);
const near = (rgb: [number, number, number], want: [number, number, number]) =>
	rgb.every((c, i) => Math.abs(c - want[i]!) < 60);

describe("a clip with its pauses cut out", () => {
	let video: string;
	let result: Awaited<ReturnType<ClipHarness["render"]>>["result"];
	beforeAll(async () => {
		({ video, result } = await tier.render("talk.mp4", {
			end: SECONDS,
			aspectRatio: "16:9",
			captions: { look: presetLook("word-by-word"), words: WORDS },
			jumpCuts: { pauses: PAUSES, confirmWithAudio: true },
		}));
	}, 180_000);

	it("is shorter by exactly the pauses cut, picture and sound alike", () => {
		expect(result.cuts).toBe(2);
		expect(result.removedSeconds).toBeCloseTo(REMOVED, 3);
		expect(Math.abs(result.duration - (SECONDS - REMOVED))).toBeLessThan(0.05);
		expect(Math.abs(streamDuration(video, "v") - (SECONDS - REMOVED))).toBeLessThan(0.05);
		expect(Math.abs(streamDuration(video, "a") - streamDuration(video, "v"))).toBeLessThan(0.05);
	});

	it("keeps no silence as long as the threshold between the first word and the last", () => {
		const last = retime(WORDS.at(-1)!.end, PAUSES);
		const long = silences(video, 0.5).filter((s) => s.end > WORDS[0]!.start + 0.05 && s.start < last - 0.05);
		expect(long).toEqual([]);
	});

	it("keeps sound and picture together: each word's tone starts where its colour does, at its time on the cut timeline", () => {
		const toneStarts = silences(video, 0.1)
			.map((s) => s.end)
			.filter((t) => t < SECONDS - REMOVED - 0.1);
		for (const w of WORDS) {
			const at = retime(w.start, PAUSES);
			expect(
				toneStarts.some((t) => Math.abs(t - at) <= 0.02),
				`${w.word}: tone at ${at} in ${toneStarts.join(", ")}`,
			).toBe(true);
			// A frame before the word's new start is not its colour; a frame after is.
			expect(near(pixel(frameAt(video, at + 0.06, 320), 10, 10), w.rgb), `${w.word} after ${at}`).toBe(true);
			expect(
				near(pixel(frameAt(video, Math.max(0.01, at - 0.06), 320), 10, 10), w.rgb),
				`${w.word} before ${at}`,
			).toBe(false);
			expect(near(pixel(frameAt(video, retime(w.end, PAUSES) - 0.06, 320), 10, 10), w.rgb), `${w.word} end`).toBe(
				true,
			);
		}
	});

	it("draws each word's caption while that word is heard on the cut clip", () => {
		const band = { x0: 0, y0: 600, x1: 1920, y1: 1080 };
		for (const w of WORDS) {
			const middle = (retime(w.start, PAUSES) + retime(w.end, PAUSES)) / 2;
			expect(pixelsIn(frameAt(video, middle), band, isWhite).count, w.word).toBeGreaterThan(300);
		}
	});
});

describe("planning", () => {
	it("snaps cuts inwards to the frame grid and keeps the rest in order", () => {
		const plan = planJumpCuts([{ start: 1.01, end: 2.99 }], 4, 25, null);
		expect(plan.cuts).toEqual([{ start: 1.04, end: 2.96 }]);
		expect(plan.keeps).toEqual([
			{ start: 0, end: 1.04 },
			{ start: 2.96, end: 4 },
		]);
		expect(plan.duration).toBeCloseTo(4 - 1.92, 6);
	});

	it("cuts only what the audio confirms as silent, and nothing too short to be worth a jump", () => {
		const plan = planJumpCuts(
			[
				{ start: 1, end: 3 },
				{ start: 5, end: 5.1 },
			],
			8,
			30,
			[
				{ start: 1.5, end: 4 },
				{ start: 4.9, end: 5.5 },
			],
		);
		expect(plan.cuts).toHaveLength(1);
		expect(plan.cuts[0]!.start).toBeCloseTo(1.5, 6);
		expect(plan.cuts[0]!.end).toBeCloseTo(3, 6);
		expect(planJumpCuts([{ start: 1, end: 3 }], 8, 30, []).cuts).toEqual([]);
	});

	it("retimes every caption event to within 10 ms of its word on the cut clip", () => {
		const words = WORDS.map(({ word, start, end }) => ({ word, start, end }));
		const moved = retimeWords(words, PAUSES);
		expect(moved.map((w) => w.start)).toEqual([0.52, 1.56, 2.64, 3.68]);
		const ass = buildAssDocument({
			layout: layoutFor("16:9", null),
			captions: { look: presetLook("word-by-word"), words: moved },
			hookTitle: null,
			duration: SECONDS - REMOVED,
		});
		const starts = ass
			.split("\n")
			.filter((l) => l.startsWith("Dialogue:"))
			.map((l) => {
				const [h, m, s] = l.split(",")[1]!.split(":");
				return Number(h) * 3600 + Number(m) * 60 + Number(s);
			});
		starts.forEach((t, i) => expect(Math.abs(t - moved[i]!.start)).toBeLessThanOrEqual(0.01));
	});

	it("builds select/aselect with the same bounds on the frame grid", () => {
		const { video, audio } = jumpCutFilters({
			keeps: [
				{ start: 0, end: 1.04 },
				{ start: 2.96, end: 4 },
			],
			fps: "25",
			duration: 2.08,
			audio: true,
		});
		expect(video).toBe(
			"select='gte(t\\,0.000-0.25/(25))*lt(t\\,1.040-0.25/(25))+gte(t\\,2.960-0.25/(25))*lt(t\\,4.000-0.25/(25))',setpts=N/(25)/TB",
		);
		expect(audio).toContain("asetnsamples=n=48:p=0,aselect='gte(t\\,0.000-0.0005)*lt(t\\,1.040-0.0005)+");
		expect(audio.endsWith("asetpts=N/SR/TB")).toBe(true);
		expect(frameRateOf("30000/1001")).toEqual({ fps: 30000 / 1001, expression: "30000/1001" });
		expect(frameRateOf("90000/1").expression).toBe("30");
	});
});
