/** Reading rendered clips back as pixels, for tests that assert what a viewer would see. */
import { execFileSync } from "node:child_process";

export interface Frame {
	width: number;
	height: number;
	rgb: Buffer;
}
export interface Region {
	x0: number;
	y0: number;
	x1: number;
	y1: number;
}
export type Pixel = (r: number, g: number, b: number) => boolean;

/** The frame shown at `t` seconds, decoded to RGB24 (optionally scaled to `width`). `-ss 0` would give a still image no frame. */
export function frameAt(path: string, t: number, width?: number): Frame {
	const size = execFileSync("ffprobe", [
		"-v",
		"error",
		"-select_streams",
		"v:0",
		"-show_entries",
		"stream=width,height",
		"-of",
		"csv=p=0",
		path,
	])
		.toString()
		.trim()
		.split(",")
		.map(Number);
	const w = width ?? size[0]!;
	const h = Math.round((w * size[1]!) / size[0]! / 2) * 2;
	const rgb = execFileSync(
		"ffmpeg",
		[
			"-v",
			"error",
			...(t > 0 ? ["-ss", t.toFixed(3)] : []),
			"-i",
			path,
			"-frames:v",
			"1",
			"-vf",
			`scale=${w}:${h}`,
			"-f",
			"rawvideo",
			"-pix_fmt",
			"rgb24",
			"-",
		],
		{ maxBuffer: 64 * 1024 * 1024 },
	);
	return { width: w, height: h, rgb };
}

export const isWhite: Pixel = (r, g, b) => r > 215 && g > 215 && b > 215;
/** The karaoke highlight (COLOURS.highlight, a warm yellow) after x264's chroma subsampling. */
export const isHighlight: Pixel = (r, g, b) => r > 190 && g > 160 && b < 110 && r - b > 110;
export const isRed: Pixel = (r, g, b) => r > 170 && g < 90 && b < 90;
export const isGreen: Pixel = (r, g, b) => g > 150 && r < 100 && b < 100;

export function pixelsIn(
	frame: Frame,
	region: Region,
	match: Pixel,
): { count: number; centroidX: number; centroidY: number; minX: number; maxX: number } {
	let count = 0;
	let sumX = 0;
	let sumY = 0;
	let minX = Infinity;
	let maxX = -Infinity;
	for (let y = Math.max(0, region.y0); y < Math.min(frame.height, region.y1); y++) {
		for (let x = Math.max(0, region.x0); x < Math.min(frame.width, region.x1); x++) {
			const i = (y * frame.width + x) * 3;
			if (match(frame.rgb[i]!, frame.rgb[i + 1]!, frame.rgb[i + 2]!)) {
				count++;
				sumX += x;
				sumY += y;
				minX = Math.min(minX, x);
				maxX = Math.max(maxX, x);
			}
		}
	}
	return {
		count,
		centroidX: count ? sumX / count : Number.NaN,
		centroidY: count ? sumY / count : Number.NaN,
		minX,
		maxX,
	};
}

export function pixel(frame: Frame, x: number, y: number): [number, number, number] {
	const i = (y * frame.width + x) * 3;
	return [frame.rgb[i]!, frame.rgb[i + 1]!, frame.rgb[i + 2]!];
}

export function meanLuma(frame: Frame): number {
	let sum = 0;
	for (let i = 0; i < frame.rgb.length; i += 3)
		sum += 0.299 * frame.rgb[i]! + 0.587 * frame.rgb[i + 1]! + 0.114 * frame.rgb[i + 2]!;
	return sum / (frame.rgb.length / 3);
}
