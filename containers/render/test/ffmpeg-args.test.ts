import { describe, expect, it } from "vitest";
import { escapeFilterValue, reframeFilter, renderClipArgs, thumbnailArgs } from "../src/ffmpeg-args.ts";
import { parseYtDlpProgress } from "../src/download.ts";
import { ffmpegProgressReader } from "../src/ffmpeg-progress.ts";
import { parsePocketsphinxOutput } from "../src/pocketsphinx.ts";

describe("renderClipArgs", () => {
	const args = renderClipArgs({ sourceUrl: "http://127.0.0.1:1/s.mp4", start: 12.5, end: 40, aspectRatio: "9:16", watermarkTextFile: "/tmp/w.txt", outputPath: "/tmp/o.mp4" });

	it("seeks before the input and cuts the clip length", () => {
		expect(args.indexOf("-ss")).toBeLessThan(args.indexOf("-i"));
		expect(args[args.indexOf("-ss") + 1]).toBe("12.500");
		expect(args[args.indexOf("-t") + 1]).toBe("27.500");
	});
	it("encodes once to H.264/AAC with faststart", () => {
		expect(args).toEqual(expect.arrayContaining(["-c:v", "libx264", "-c:a", "aac", "-movflags", "+faststart", "-pix_fmt", "yuv420p"]));
		expect(args[args.length - 1]).toBe("/tmp/o.mp4");
	});
	it("tolerates a source without audio", () => {
		expect(args).toEqual(expect.arrayContaining(["-map", "0:a:0?"]));
	});
	it("draws the watermark from a file, never inline text", () => {
		const vf = args[args.indexOf("-vf") + 1]!;
		expect(vf).toContain("textfile=/tmp/w.txt");
		expect(vf).not.toContain("text='");
	});
	it("has no watermark when none is asked for", () => {
		const plain = renderClipArgs({ sourceUrl: "/s.mp4", start: 0, end: 5, aspectRatio: "1:1", watermarkTextFile: null, outputPath: "/o.mp4" });
		expect(plain[plain.indexOf("-vf") + 1]).not.toContain("drawtext");
		expect(plain).not.toContain("-reconnect");
	});
});

describe("reframeFilter", () => {
	it("crops the largest centred box of the ratio and scales to the output size", () => {
		expect(reframeFilter("9:16")).toContain("scale=1080:1920");
		expect(reframeFilter("16:9")).toContain("scale=1920:1080");
		expect(reframeFilter("1:1")).toContain("scale=1080:1080");
		expect(reframeFilter("9:16")).toMatch(/^crop=w=trunc\(min\(iw\\,ih\*1080\/1920\)/);
	});
});

describe("thumbnailArgs", () => {
	it("takes one frame a quarter into the clip (at most 2 s in)", () => {
		const args = thumbnailArgs({ sourceUrl: "/s.mp4", start: 10, end: 14, aspectRatio: "9:16", outputPath: "/t.jpg" });
		expect(args[args.indexOf("-ss") + 1]).toBe("11.000");
		expect(args).toEqual(expect.arrayContaining(["-frames:v", "1"]));
	});
});

describe("escapeFilterValue", () => {
	it("escapes both filter levels so a value cannot break out of its option", () => {
		expect(escapeFilterValue("a:b")).toBe("a\\\\:b");
		expect(escapeFilterValue("it's")).toBe("it\\\\\\'s");
		expect(escapeFilterValue("x,y;[z]")).toBe("x\\,y\\;\\[z\\]");
	});
});

describe("progress parsers", () => {
	it("reads yt-dlp's template lines", () => {
		expect(parseYtDlpProgress("cfprogress 500 1000 NA")).toBe(0.5);
		expect(parseYtDlpProgress("cfprogress 500 NA 2000")).toBe(0.25);
		expect(parseYtDlpProgress("cfprogress 500 NA NA")).toBeNull();
		expect(parseYtDlpProgress("[download] 10%")).toBeNull();
	});
	it("reads ffmpeg -progress out_time_us", () => {
		const seen: number[] = [];
		const read = ffmpegProgressReader(20, (f) => seen.push(f));
		read("frame=10");
		read("out_time_us=5000000");
		read("progress=end");
		expect(seen).toEqual([0.25, 1]);
	});
});

describe("parsePocketsphinxOutput", () => {
	it("keeps words with times, drops markers and pronunciation variants, one segment per utterance", () => {
		const out = ["did you know", "<s> 0.110 0.170 1.000100", "did 0.180 0.320 0.226622", "you 0.330 0.490 0.999300", "know(2) 0.500 0.720 0.999300", "<sil> 0.73 0.9 1.0", "</s> 3.360 3.490 1.000000", "hello", "hello 4.0 4.4 0.9", "[NOISE] 4.5 4.6 1.0"].join("\n");
		expect(parsePocketsphinxOutput(out)).toEqual([
			{ start: 0.18, end: 0.72, text: "did you know", words: [{ word: "did", start: 0.18, end: 0.32 }, { word: "you", start: 0.33, end: 0.49 }, { word: "know", start: 0.5, end: 0.72 }] },
			{ start: 4, end: 4.4, text: "hello", words: [{ word: "hello", start: 4, end: 4.4 }] },
		]);
	});
});
