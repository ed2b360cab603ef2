/**
 * The filters of a clip's graph, as strings: reframing (centre, a followed face, a fixed rectangle),
 * jump cuts, the watermark's text, and the escaping every value spliced into a filtergraph gets.
 * Pure (test/ffmpeg-args.test.ts, test/jump-cuts.test.ts).
 */
import { seconds } from "./common.ts";
import type { Box, PixelRect } from "./geometry.ts";

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
