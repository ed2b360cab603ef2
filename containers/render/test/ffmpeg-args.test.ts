import { describe, expect, it } from "vitest";
import { escapeFilterValue, reframeFilter, renderClipArgs } from "../src/ffmpeg/clip-args.ts";
import { x264Preset } from "../src/ffmpeg/encode-preset.ts";
import { createRenderTier } from "../src/server.ts";
import { layoutFor } from "../src/framing/layout.ts";
import { parseYtDlpProgress } from "../src/source/download.ts";
import { ffmpegProgressReader } from "../src/ffmpeg/progress.ts";
import { parsePocketsphinxOutput } from "../src/audio/pocketsphinx.ts";

const base = {
	sourceUrl: "http://127.0.0.1:1/s.mp4",
	start: 12.5,
	end: 40,
	layout: layoutFor("9:16", null),
	track: null,
	assFile: null,
	backgroundFile: null,
	watermark: null,
	outputPath: "/tmp/o.mp4",
};
const graphOf = (args: string[]) => args[args.indexOf("-filter_complex") + 1]!;

describe("renderClipArgs", () => {
	const args = renderClipArgs({ ...base, watermark: { kind: "text", textFile: "/tmp/w.txt" } });

	it("seeks before the input and cuts the clip length", () => {
		expect(args.indexOf("-ss")).toBeLessThan(args.indexOf("-i"));
		expect(args[args.indexOf("-ss") + 1]).toBe("12.500");
		expect(args[args.indexOf("-t") + 1]).toBe("27.500");
	});
	it("encodes once to H.264/AAC with faststart", () => {
		expect(args).toEqual(
			expect.arrayContaining([
				"-c:v",
				"libx264",
				"-c:a",
				"aac",
				"-movflags",
				"+faststart",
				"-pix_fmt",
				"yuv420p",
			]),
		);
		expect(args[args.length - 1]).toBe("/tmp/o.mp4");
	});
	it("encodes at veryfast unless the operator's X264_PRESET says otherwise; an unknown preset stops the tier at startup", () => {
		const presetOf = (a: string[]) => a[a.indexOf("-preset") + 1];
		expect(presetOf(args)).toBe("veryfast");
		expect(presetOf(renderClipArgs({ ...base, preset: "ultrafast" }))).toBe("ultrafast");
		expect(x264Preset({})).toBe("veryfast");
		expect(x264Preset({ X264_PRESET: " ultrafast " })).toBe("ultrafast");
		expect(() => x264Preset({ X264_PRESET: "ultrafast -crf 0" })).toThrow(
			/X264_PRESET "ultrafast -crf 0" is not an x264 preset/,
		);
		const saved = process.env.X264_PRESET;
		process.env.X264_PRESET = "fastest";
		try {
			expect(() => createRenderTier({ secret: "s".repeat(32) })).toThrow(/X264_PRESET "fastest"/);
		} finally {
			if (saved === undefined) delete process.env.X264_PRESET;
			else process.env.X264_PRESET = saved;
		}
	});
	it("stacks two face crops from one decode, each scaled to its half, with captions on the seam", () => {
		const layout = layoutFor("9:16", null, true);
		expect(layout.halves).toEqual([
			{ width: 1080, height: 960 },
			{ width: 1080, height: 960 },
		]);
		expect(layout.captionY).toBe(960);
		const rects = [
			{ x: 100, y: 40, width: 540, height: 480 },
			{ x: 1200, y: 60, width: 540, height: 480 },
		] as const;
		const graph = graphOf(
			renderClipArgs({ ...base, layout, stacked: [rects[0], rects[1]], assFile: "/tmp/c.ass" }),
		);
		expect(graph).toContain(
			"[0:v]split=2[p0][p1];[p0]crop=w=540:h=480:x=100:y=40,scale=1080:960:flags=lanczos,setsar=1[top]",
		);
		expect(graph).toContain(
			"[p1]crop=w=540:h=480:x=1200:y=60,scale=1080:960:flags=lanczos,setsar=1[bottom];[top][bottom]vstack=inputs=2[base]",
		);
		expect(graph).toContain("[base]ass=filename=/tmp/c.ass");
	});
	it("tolerates a source without audio", () => {
		expect(args).toEqual(expect.arrayContaining(["-map", "0:a:0?"]));
	});
	it("draws the watermark from a file with expansion off, never inline text", () => {
		expect(graphOf(args)).toContain("textfile=/tmp/w.txt:expansion=none");
		expect(graphOf(args)).not.toContain("text='");
	});
	it("has no watermark, captions or second input when none is asked for", () => {
		const plain = renderClipArgs({ ...base, sourceUrl: "/s.mp4", layout: layoutFor("1:1", null) });
		expect(graphOf(plain)).not.toMatch(/drawtext|ass=|overlay|vstack/);
		expect(plain.filter((a) => a === "-i")).toHaveLength(1);
		expect(plain).not.toContain("-reconnect");
	});
	it("stacks the main video over a looped background at the split ratio", () => {
		const split = renderClipArgs({ ...base, layout: layoutFor("9:16", 30), backgroundFile: "/bg.mp4" });
		expect(split.slice(split.indexOf("-stream_loop"), split.indexOf("-stream_loop") + 4)).toEqual([
			"-stream_loop",
			"-1",
			"-i",
			"/bg.mp4",
		]);
		expect(graphOf(split)).toContain("scale=1080:576:flags=lanczos");
		expect(graphOf(split)).toContain("scale=1080:1344:flags=lanczos");
		expect(graphOf(split)).toContain("vstack=inputs=2:shortest=1");
	});
	it("burns captions, then overlays an image mark as a third input", () => {
		const all = renderClipArgs({
			...base,
			layout: layoutFor("9:16", 50),
			backgroundFile: "/bg.mp4",
			assFile: "/c.ass",
			watermark: { kind: "image", imageFile: "/m.png" },
		});
		const graph = graphOf(all);
		expect(graph.indexOf("ass=filename=/c.ass")).toBeGreaterThan(graph.indexOf("vstack"));
		expect(graph).toContain("[2:v]scale=216:-2");
		expect(graph.indexOf("overlay")).toBeGreaterThan(graph.indexOf("ass="));
	});
	it("slides the crop along the tracked axis", () => {
		const tracked = renderClipArgs({ ...base, track: { axis: "x", position: "0.25" } });
		expect(graphOf(tracked)).toContain("x=(iw-ow)*(0.25):y=(ih-oh)/2");
	});
});

describe("reframeFilter", () => {
	it("crops the largest centred box of the ratio and scales to the output size", () => {
		expect(reframeFilter(layoutFor("9:16", null).main)).toContain("scale=1080:1920");
		expect(reframeFilter(layoutFor("16:9", null).main)).toContain("scale=1920:1080");
		expect(reframeFilter(layoutFor("1:1", null).main)).toContain("scale=1080:1080");
		expect(reframeFilter(layoutFor("9:16", null).main)).toMatch(/^crop=w=trunc\(min\(iw\\,ih\*1080\/1920\)/);
	});
});

describe("thumbnail from the same pass", () => {
	it("branches the final picture into a chooser of non-dark, representative frames and writes one JPEG", () => {
		const args = renderClipArgs({ ...base, thumbnail: { path: "/t.jpg", width: 540 } });
		expect(graphOf(args)).toContain("split=2[out][candidates]");
		expect(graphOf(args)).toMatch(
			/\[candidates\]trim=start=0\.500:end=6\.500,fps=5,scale=540:-2,signalstats.*YAVG.*thumbnail=n=30\[thumb\]/,
		);
		expect(args.slice(-9)).toEqual(["-map", "[thumb]", "-frames:v", "1", "-update", "1", "-q:v", "3", "/t.jpg"]);
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
		const out = [
			"did you know",
			"<s> 0.110 0.170 1.000100",
			"did 0.180 0.320 0.226622",
			"you 0.330 0.490 0.999300",
			"know(2) 0.500 0.720 0.999300",
			"<sil> 0.73 0.9 1.0",
			"</s> 3.360 3.490 1.000000",
			"hello",
			"hello 4.0 4.4 0.9",
			"[NOISE] 4.5 4.6 1.0",
		].join("\n");
		expect(parsePocketsphinxOutput(out)).toEqual([
			{
				start: 0.18,
				end: 0.72,
				text: "did you know",
				words: [
					{ word: "did", start: 0.18, end: 0.32 },
					{ word: "you", start: 0.33, end: 0.49 },
					{ word: "know", start: 0.5, end: 0.72 },
				],
			},
			{ start: 4, end: 4.4, text: "hello", words: [{ word: "hello", start: 4, end: 4.4 }] },
		]);
	});
});
