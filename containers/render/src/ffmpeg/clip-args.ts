/**
 * A clip's one ffmpeg pass: its filters (reframing on the centre, a followed face or a fixed
 * rectangle, jump cuts, the watermark's text, with the escaping every value spliced into a
 * filtergraph gets) and its argument array: cut, reframe, split-screen over a looped background,
 * captions and hook title (libass), watermark, H.264/AAC, and the thumbnail from a branch of the
 * same pass. Pure: nothing here runs a process, so every choice is unit-tested without media
 * (test/ffmpeg-args.test.ts, test/jump-cuts.test.ts). Comments say why each flag is there.
 */
import { COMMON, seconds, sourceInputOptions } from "./common.ts";
import { DEFAULT_X264_PRESET, type X264Preset } from "./encode-preset.ts";
import type { Box, FrameBoxes, PixelRect } from "./geometry.ts";

export const DEFAULT_FONT_FILE = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";

/**
 * Escapes a value for a filter option inside a filtergraph: first the option level (`\ ' :`),
 * then the graph level (`\ ' [ ] , ;`), as ffmpeg-filters(1) "Notes on filtergraph escaping" says.
 * @example escapeFilterValue("C:\\fonts\\a.ttf") // "C\\\\:\\\\\\\\fonts..." (safe inside drawtext=fontfile=...)
 */
export function escapeFilterValue(value: string): string {
	const optionLevel = value.replace(/[\\':]/g, (c) => `\\${c}`);
	return optionLevel.replace(/[\\'[\],;]/g, (c) => `\\${c}`);
}

/**
 * Crops the source to the aspect ratio of `box` (the largest such window that fits, so nothing is
 * letterboxed or stretched) and scales it to the box. The window is centred, or slides along
 * `track.axis` following `track.position` (an expression of t giving 0-1, from smart crop).
 */
export function reframeFilter(
	box: Box,
	track: { axis: "x" | "y"; position: string } | null = null,
	afterCrop: string | null = null,
): string {
	const { width, height } = box;
	const cropW = `trunc(min(iw\\,ih*${width}/${height})/2)*2`;
	const cropH = `trunc(min(ih\\,iw*${height}/${width})/2)*2`;
	const x = track?.axis === "x" ? `(iw-ow)*(${track.position})` : "(iw-ow)/2";
	const y = track?.axis === "y" ? `(ih-oh)*(${track.position})` : "(ih-oh)/2";
	// `afterCrop` (jump cuts) goes between: the crop still reads the source's time, the scaler only sees kept frames.
	return [`crop=w=${cropW}:h=${cropH}:x=${x}:y=${y}`, afterCrop, `scale=${width}:${height}:flags=lanczos`, "setsar=1"]
		.filter(Boolean)
		.join(",");
}

/** Jump cuts for one pass: the stretches kept (seconds from the clip's start, on the frame grid) and that grid. */
export interface JumpCutArgs {
	keeps: { start: number; end: number }[];
	/** The constant frame rate the video is brought to first, as an ffmpeg rational (`30`, `30000/1001`). */
	fps: string;
	/** Seconds the clip lasts after the cuts. */
	duration: number;
	/** False when the source has no audio track (nothing to cut there). */
	audio: boolean;
}

/**
 * `select`/`aselect` keep the frames of the kept stretches and `setpts`/`asetpts` close the gaps.
 * Video frames sit on k/fps after the fps filter, so a bound a quarter frame early picks exactly the
 * frames of [start, end). Audio is first split into 1 ms frames (48 samples at 48 kHz), so its cuts
 * land within a millisecond of the video's.
 */
export function jumpCutFilters(cuts: JumpCutArgs): { video: string; audio: string } {
	const within = (epsilon: string) =>
		cuts.keeps.map((k) => `gte(t\\,${seconds(k.start)}-${epsilon})*lt(t\\,${seconds(k.end)}-${epsilon})`).join("+");
	return {
		video: `select='${within(`0.25/(${cuts.fps})`)}',setpts=N/(${cuts.fps})/TB`,
		audio: `aresample=48000,asetnsamples=n=48:p=0,aselect='${within("0.0005")}',asetpts=N/SR/TB`,
	};
}

/** A fixed source rectangle (numbers computed by the tier, never user text) scaled to `box`. */
export function rectFilter(rect: PixelRect, box: Box): string {
	return [
		`crop=w=${rect.width}:h=${rect.height}:x=${rect.x}:y=${rect.y}`,
		`scale=${box.width}:${box.height}:flags=lanczos`,
		"setsar=1",
	].join(",");
}

/**
 * A small translucent mark in the bottom-right corner. The text comes from a file and
 * `expansion=none` keeps drawtext from reading `%{...}` in it: user text is never syntax.
 */
export function watermarkTextFilter(textFile: string, fontFile = DEFAULT_FONT_FILE): string {
	return [
		`drawtext=fontfile=${escapeFilterValue(fontFile)}`,
		`textfile=${escapeFilterValue(textFile)}`,
		"expansion=none",
		"fontsize=h*0.028",
		"fontcolor=white@0.75",
		"shadowcolor=black@0.6:shadowx=2:shadowy=2",
		"x=w-tw-h*0.03:y=h-th-h*0.03",
	].join(":");
}

/** Frame rate both halves of a split-screen are brought to, so vstack pairs frames one to one. */
const SPLIT_FPS = 30;

export interface RenderClipArgs {
	sourceUrl: string;
	start: number;
	end: number;
	/** The frame's boxes (framing/layout.ts `layoutFor`). */
	layout: FrameBoxes;
	/** Smart-crop (or follow-speaker) path for the main video; null = centre crop. */
	track: { axis: "x" | "y"; position: string } | null;
	/** Stacked speakers: the source rectangles for `layout.halves` (top, bottom); wins over `track`. */
	stacked?: [PixelRect, PixelRect] | null;
	/** ASS document with captions and/or the hook title. */
	assFile: string | null;
	/** Local copy of the split-screen background (looped); null = no split-screen. */
	backgroundFile: string | null;
	watermark: { kind: "text"; textFile: string } | { kind: "image"; imageFile: string } | null;
	outputPath: string;
	/** Also write the representative thumbnail (JPEG, this wide) from the same pass. */
	thumbnail?: { path: string; width: number };
	/** Remove silences: the stretches kept (null: the clip plays as it was said). */
	jumpCuts?: JumpCutArgs | null;
	/** x264's speed/size trade (encode-preset.ts); veryfast when absent. */
	preset?: X264Preset;
}

/** The filter graph as it is built: its inputs (`-i …`), its chains, the label of the picture so far. */
interface Graph {
	inputs: string[];
	chains: string[];
	/** Index of the next input (0 is the source). */
	next: number;
	last: string;
}

/** Appends a filter to the picture so far, under a new label. */
const chain = (g: Graph, filter: string, label: string) => {
	g.chains.push(`[${g.last}]${filter}[${label}]`);
	g.last = label;
};

/**
 * The picture before anything is drawn on it, as `[base]`: split-screen over the looped
 * background, two people stacked, or the source reframed.
 */
function addBase(g: Graph, spec: RenderClipArgs, cuts: JumpCutArgs | null, cut: { video: string } | null): void {
	const { layout } = spec;
	// With jump cuts the video is first brought to the constant rate the cuts are snapped to.
	const mainFilter = `${cuts ? `fps=${cuts.fps},` : ""}${reframeFilter(layout.main, spec.track, cut?.video ?? null)}`;
	if (spec.backgroundFile && layout.background) {
		g.inputs.push("-stream_loop", "-1", "-i", spec.backgroundFile);
		g.chains.push(`[0:v]${mainFilter},fps=${SPLIT_FPS}[main]`);
		g.chains.push(`[${g.next++}:v]${reframeFilter(layout.background)},fps=${SPLIT_FPS}[bg]`);
		g.chains.push("[main][bg]vstack=inputs=2:shortest=1[base]");
	} else if (spec.stacked && layout.halves) {
		// One decode, two crops: each person cropped around their face and scaled to their half.
		const [top, bottom] = layout.halves;
		// Jump cuts before the split: the crops are fixed rectangles, so they need no source time.
		g.chains.push(`[0:v]${cut && cuts ? `fps=${cuts.fps},${cut.video},` : ""}split=2[p0][p1]`);
		g.chains.push(`[p0]${rectFilter(spec.stacked[0], top)}[top]`);
		g.chains.push(`[p1]${rectFilter(spec.stacked[1], bottom)}[bottom]`);
		g.chains.push("[top][bottom]vstack=inputs=2[base]");
	} else {
		g.chains.push(`[0:v]${mainFilter}[base]`);
	}
	g.last = "base";
}

/** Captions and hook title (libass), then the watermark (text or image). */
function addOverlays(g: Graph, spec: RenderClipArgs): void {
	if (spec.assFile) chain(g, `ass=filename=${escapeFilterValue(spec.assFile)}`, "text");
	if (spec.watermark?.kind === "text") chain(g, watermarkTextFilter(spec.watermark.textFile), "marked");
	if (spec.watermark?.kind === "image") {
		g.inputs.push("-i", spec.watermark.imageFile);
		const markWidth = Math.round(spec.layout.output.width * 0.2);
		const margin = Math.round(spec.layout.output.height * 0.03);
		g.chains.push(`[${g.next++}:v]scale=${markWidth}:-2,format=rgba,colorchannelmixer=aa=0.8[mark]`);
		g.chains.push(`[${g.last}][mark]overlay=x=W-w-${margin}:y=H-h-${margin}:format=auto[marked]`);
		g.last = "marked";
	}
}

/**
 * One encode from the source (no stacked re-encodes): cut, reframe (centre or face-tracked),
 * split-screen over a looped background, captions and hook title (libass), watermark, H.264/AAC.
 */
export function renderClipArgs(spec: RenderClipArgs): string[] {
	const cuts = spec.jumpCuts ?? null;
	const duration = cuts ? cuts.duration : spec.end - spec.start;
	const g: Graph = {
		inputs: [...sourceInputOptions(spec.sourceUrl), "-ss", seconds(spec.start), "-i", spec.sourceUrl],
		chains: [],
		next: 1,
		last: "",
	};
	const cut = cuts ? jumpCutFilters(cuts) : null;
	addBase(g, spec, cuts, cut);
	if (cut && cuts?.audio) g.chains.push(`[0:a:0]${cut.audio}[audio]`);
	addOverlays(g, spec);
	const thumbnail = spec.thumbnail;
	if (thumbnail) {
		// A branch of the same pass: no second decode of the finished clip (≈ 0.9 s saved per clip).
		g.chains.push(`[${g.last}]format=yuv420p,split=2[out][candidates]`);
		g.chains.push(`[candidates]${thumbnailChooser(duration, thumbnail.width)}[thumb]`);
	} else {
		g.chains.push(`[${g.last}]format=yuv420p[out]`);
	}
	return [
		...COMMON,
		// -ss before -i seeks the input (fast, reads little over HTTP) and is frame-accurate when transcoding.
		...g.inputs,
		"-filter_complex",
		g.chains.join(";"),
		"-map",
		"[out]",
		// `?`: a source without audio still renders (silently) instead of failing.
		"-map",
		cut && cuts?.audio ? "[audio]" : "0:a:0?",
		"-t",
		seconds(duration),
		...clipEncode(spec.preset ?? DEFAULT_X264_PRESET),
		spec.outputPath,
		...(thumbnail ? ["-map", "[thumb]", "-frames:v", "1", "-update", "1", "-q:v", "3", thumbnail.path] : []),
	];
}

/** A clip's codecs: H.264 (CRF 21 at the given preset) and AAC 128k at 48 kHz, moov atom first. */
const clipEncode = (preset: X264Preset) => [
	"-c:v",
	"libx264",
	"-preset",
	preset,
	"-crf",
	"21",
	"-pix_fmt",
	"yuv420p",
	"-c:a",
	"aac",
	"-b:a",
	"128k",
	"-ar",
	"48000",
	// moov atom first: the clip starts playing in a browser before it is fully downloaded.
	"-movflags",
	"+faststart",
];

/**
 * Picks a representative frame: the clip's first seconds (past any fade-in) at 5 per second, dark
 * ones dropped (mean luma ≤ 24 of 255), then ffmpeg's `thumbnail` filter keeps the frame closest
 * to the batch's average colour histogram, which is never mid-transition.
 */
function thumbnailChooser(duration: number, width: number): string {
	const from = Math.min(0.5, duration / 4);
	const to = from + Math.min(6, Math.max(0.1, duration - from));
	return `trim=start=${seconds(from)}:end=${seconds(to)},fps=5,scale=${width}:-2,signalstats,metadata=mode=select:key=lavfi.signalstats.YAVG:value=24:function=greater,thumbnail=n=30`;
}

/** Fallback when every candidate frame is dark: the frame a quarter of the way in. */
export function plainThumbnailArgs(clipPath: string, duration: number, outputPath: string, width: number): string[] {
	return [
		...COMMON,
		"-ss",
		seconds(duration / 4),
		"-i",
		clipPath,
		"-vf",
		`scale=${width}:-2`,
		"-frames:v",
		"1",
		"-update",
		"1",
		"-q:v",
		"3",
		outputPath,
	];
}
