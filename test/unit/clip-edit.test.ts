/**
 * The pure parts of clip edits and exports: snapping a trim to word edges (and when it does not),
 * corrected words keeping their timings, the ZIP writer over many chunks (read back by fflate),
 * and timeline text escaping (parsed back).
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { gzipSync, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { clipWords, snapTrim, SNAP_SECONDS, withCorrections } from "../../src/worker/domain/clip-edit";
import { toFcpxml, toXmeml } from "../../src/worker/services/exports/timeline";
import { zipLength, zipStream } from "../../src/worker/services/exports/zip";

/** Words of 0.3 s every 0.4 s from 10 s, with a 5 s pause after word 20. */
const words = Array.from({ length: 60 }, (_, i) => {
	const start = 10 + i * 0.4 + (i > 20 ? 5 : 0);
	return { word: `w${i}`, start: Math.round(start * 1000) / 1000, end: Math.round((start + 0.3) * 1000) / 1000 };
});

describe("snapTrim", () => {
	it("moves the start to the nearest word start and the end to the nearest word end", () => {
		const trim = snapTrim(words, 12.13, 17.85, { start: 0, end: 600 });
		expect(trim).toEqual({ start: 12, end: 17.9, issues: [] });
	});

	it("leaves a time in a long pause as asked (no word edge within SNAP_SECONDS)", () => {
		const pauseMiddle = words[20]!.end + 2.5;
		expect(pauseMiddle - words[20]!.end).toBeGreaterThan(SNAP_SECONDS);
		expect(snapTrim(words, 10, pauseMiddle, { start: 0, end: 600 })).toMatchObject({
			start: 10,
			end: pauseMiddle,
			issues: [],
		});
	});

	it("keeps times as asked when there are no words, and refuses what falls outside the source or the length bounds", () => {
		expect(snapTrim([], 3.3333, 20.1, { start: 0, end: 600 })).toMatchObject({
			start: 3.333,
			end: 20.1,
			issues: [],
		});
		expect(snapTrim(words, 10, 601, { start: 0, end: 600 }).issues.map((i) => i.path)).toEqual(["endTime"]);
		expect(snapTrim(words, -1, 20, { start: 0, end: 600 }).issues.map((i) => i.path)).toEqual(["startTime"]);
		expect(snapTrim(words, 20, 20, { start: 0, end: 600 }).issues[0]!.message).toMatch(/after startTime/);
		// 10.0 → 12.3 snaps to 2.3 s: too short.
		expect(snapTrim(words, 10, 12.2, { start: 0, end: 600 }).issues[0]!.message).toMatch(
			/must last 5 to 600 s; .* 2\.3 s \(10 → 12\.3\)/,
		);
		expect(snapTrim([], 0, 700, { start: 0, end: 800 }).issues[0]!.message).toMatch(/must last 5 to 600 s/);
	});
});

describe("corrected caption words", () => {
	it("replace a word's text by its start in the source, so they survive a later trim", () => {
		const inClip = clipWords(words, 12, 18, null);
		const { fixes, issues } = withCorrections(inClip, null, [
			{ index: 0, word: " Hello " },
			{ index: 2, word: "there" },
		]);
		expect(issues).toEqual([]);
		expect(fixes).toEqual([
			{ start: 12, word: "Hello" },
			{ start: 12.8, word: "there" },
		]);
		const wider = clipWords(words, 11, 18, fixes);
		expect(wider.map((w) => w.word).slice(0, 6)).toEqual(["w2", "w3", "w4", "Hello", "w6", "there"]);
		expect(wider[3]).toEqual({ word: "Hello", start: 12, end: 12.3 });
		expect(withCorrections(inClip, fixes, [{ index: 99, word: "x" }]).issues[0]!.path).toBe("captionWords.0.index");
	});
});

describe("zipStream", () => {
	it("writes entries that arrive in many chunks, with the CRC and length a reader expects", async () => {
		const big = new Uint8Array(300_000).map((_, i) => (i * 7919) % 251);
		const chunked = (bytes: Uint8Array, size: number) =>
			new ReadableStream<Uint8Array>({
				start(controller) {
					for (let at = 0; at < bytes.length; at += size) controller.enqueue(bytes.slice(at, at + size));
					controller.close();
				},
			});
		const entries = [
			{
				name: "01-big.mp4",
				size: big.length,
				modified: new Date("2026-03-04T05:06:08Z"),
				open: async () => chunked(big, 4096),
			},
			{
				name: "02-ünïcode.txt",
				size: 5,
				modified: new Date("1970-01-01T00:00:00Z"),
				open: async () => chunked(new TextEncoder().encode("hello"), 2),
			},
			{ name: "empty", size: 0, modified: new Date(), open: async () => chunked(new Uint8Array(0), 1) },
		];
		const bytes = new Uint8Array(await new Response(zipStream(entries)).arrayBuffer());
		expect(bytes.length).toBe(zipLength(entries));
		const files = unzipSync(bytes);
		expect(Object.keys(files)).toEqual(["01-big.mp4", "02-ünïcode.txt", "empty"]);
		expect(files["01-big.mp4"]).toEqual(big);
		expect(new TextDecoder().decode(files["02-ünïcode.txt"])).toBe("hello");
		const gz = gzipSync(big, { level: 0 });
		const crc = new DataView(gz.buffer, gz.byteOffset).getUint32(gz.byteLength - 8, true);
		expect(new DataView(bytes.buffer).getUint32(30 + "01-big.mp4".length + big.length + 4, true)).toBe(crc);
	});

	it("fails the stream when an entry is shorter than announced", async () => {
		const entries = [{ name: "a", size: 10, modified: new Date(), open: async () => new Response("short").body! }];
		await expect(new Response(zipStream(entries)).arrayBuffer()).rejects.toThrow(/expected 10 bytes, read 5/);
	});
});

describe("timelines", () => {
	it("escape titles and media paths, and stay parseable", () => {
		const timeline = {
			name: `Tom & "Jerry" <live>`,
			videoId: "vid_1",
			mediaUrl: "file:///Users/me/a&b.mp4",
			sourceDuration: 100,
			clips: [{ id: "c1", title: "It's <great> & more", start: 1.01, end: 11.5, score: 90 }],
		};
		for (const xml of [toFcpxml(timeline), toXmeml(timeline)]) {
			expect(XMLValidator.validate(xml)).toBe(true);
			expect(JSON.stringify(new XMLParser({ ignoreAttributes: false }).parse(xml))).toContain(
				"It's <great> & more",
			);
		}
		// 1.01 s and 11.5 s at 30 fps: frames 30 and 345.
		expect(toFcpxml(timeline)).toContain(`start="30/30s" duration="315/30s"`);
		expect(toXmeml(timeline)).toContain("<in>30</in><out>345</out>");
	});
});
