/**
 * Face detection on sampled frames of a clip, for smart crop. The detector is BlazeFace through
 * `@vladmandic/human` on TensorFlow.js's WebAssembly backend; its weights ship inside the npm
 * package (models/blazeface.*), so nothing is downloaded at run time. Frames come from ffmpeg as
 * raw RGB (no canvas, no image files).
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { clipStreamInputArgs } from "../ffmpeg/clip-stream-args.ts";
import { jobTimeouts } from "../runtime/job-timeouts.ts";
import { runProcess } from "../runtime/run-process.ts";
import type { FaceBox, FaceSample } from "./smart-crop.ts";
import { tools } from "../runtime/tool-paths.ts";

/** Width frames are decoded at for detection: a face of 1/10 the frame width is still ~50 px. */
export const DETECT_WIDTH = 512;
const MAX_SAMPLES = 240;
const SAMPLES_PER_SECOND = 4;

interface HumanFace {
	boxRaw: [number, number, number, number];
	score: number;
}
interface HumanLike {
	load(): Promise<void>;
	detect(input: unknown): Promise<{ face: HumanFace[] }>;
	tf: { tensor4d(values: Int32Array, shape: [number, number, number, number], dtype: "int32"): { dispose(): void } };
}

let detector: Promise<HumanLike> | null = null;

/** Loads BlazeFace once per process (≈ 50 ms); later calls share it. */
function loadDetector(): Promise<HumanLike> {
	detector ??= (async () => {
		const require = createRequire(import.meta.url);
		// The package's exports map lacks a valid entry for the wasm build: find it beside the main one.
		const humanFile = join(dirname(require.resolve("@vladmandic/human")), "human.node-wasm.js");
		const wasmDir = dirname(require.resolve("@tensorflow/tfjs-backend-wasm"));
		installFileFetch();
		const { Human } = require(humanFile) as { Human: new (config: object) => HumanLike };
		const human = new Human({
			backend: "wasm",
			wasmPath: `${pathToFileURL(wasmDir).href}/`,
			modelBasePath: `${pathToFileURL(join(dirname(humanFile), "..", "models")).href}/`,
			debug: false,
			cacheSensitivity: 0,
			face: {
				enabled: true,
				detector: { rotation: false, maxDetected: 6, minConfidence: 0.5, return: false },
				mesh: { enabled: false },
				iris: { enabled: false },
				description: { enabled: false },
				emotion: { enabled: false },
				antispoof: { enabled: false },
				liveness: { enabled: false },
			},
			body: { enabled: false },
			hand: { enabled: false },
			object: { enabled: false },
			gesture: { enabled: false },
			segmentation: { enabled: false },
			filter: { enabled: false },
		});
		await human.load();
		return human;
	})();
	detector.catch(() => (detector = null));
	return detector;
}

/**
 * tfjs loads models and the wasm binary with `fetch`, which Node cannot do for file:// URLs;
 * answer those from disk and leave every other URL to the real fetch.
 */
function installFileFetch(): void {
	const realFetch = globalThis.fetch;
	if ((realFetch as { fileAware?: boolean }).fileAware) return;
	const fileAware = async (input: string | URL | Request, init?: RequestInit) => {
		const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
		if (!url.startsWith("file://")) return realFetch(input, init);
		const body = await readFile(new URL(url));
		const type = url.endsWith(".json")
			? "application/json"
			: url.endsWith(".wasm")
				? "application/wasm"
				: "application/octet-stream";
		return new Response(body, { headers: { "content-type": type } });
	};
	globalThis.fetch = Object.assign(fileAware, { fileAware: true }) as typeof fetch;
}

/** Faces on one raw RGB24 frame, boxes in fractions of the frame. */
export async function detectFaces(rgb: Uint8Array, width: number, height: number): Promise<FaceBox[]> {
	const human = await loadDetector();
	const tensor = human.tf.tensor4d(Int32Array.from(rgb), [1, height, width, 3], "int32");
	try {
		const result = await human.detect(tensor);
		return result.face.map((f) => ({
			x: f.boxRaw[0],
			y: f.boxRaw[1],
			width: f.boxRaw[2],
			height: f.boxRaw[3],
			score: f.score,
		}));
	} finally {
		tensor.dispose();
	}
}

export interface FaceScan {
	samples: FaceSample[];
	/** Times (s from the clip start) where the picture changes completely. */
	cuts: number[];
	/** Source width / height. */
	sourceAspect: number;
}

/**
 * How densely a clip of `duration` seconds is sampled: SAMPLES_PER_SECOND, fewer for long clips so
 * no scan decodes more than MAX_SAMPLES frames.
 */
export function samplingPlan(duration: number): { fps: number; expectedFrames: number } {
	const fps = Math.min(SAMPLES_PER_SECOND, MAX_SAMPLES / Math.max(duration, 1));
	return { fps, expectedFrames: Math.min(MAX_SAMPLES, Math.max(1, Math.floor(duration * fps))) };
}

/**
 * Decodes `duration` seconds of the source from `start` at a few frames per second and detects
 * faces on each. Face boxes are in fractions of the frame (0-1), times in seconds from `start`.
 */
export async function scanFaces(
	sourceUrl: string,
	start: number,
	duration: number,
	source: { width: number; height: number },
	onProgress: (fraction: number) => void,
	signal: AbortSignal,
): Promise<FaceScan> {
	await loadDetector();
	const { fps, expectedFrames: expected } = samplingPlan(duration);
	const width = DETECT_WIDTH;
	const height = Math.max(2, Math.round((DETECT_WIDTH * source.height) / source.width / 2) * 2);
	const samples: FaceSample[] = [];
	const thumbnails: Uint8Array[] = [];
	let previous: Buffer | null = null;
	const onFrame = async (frame: Buffer) => {
		const faces = await detectFaces(frame, width, height);
		// Mouth motion since the previous sample: the speaker layouts' visual half of "who speaks".
		for (const face of faces) face.motion = previous ? mouthMotion(previous, frame, width, height, face) : 0;
		previous = frame;
		samples.push({ t: samples.length / fps, faces });
		thumbnails.push(lumaThumbnail(frame, width, height));
		onProgress(Math.min(1, samples.length / expected));
	};

	const frames = ["-vf", `fps=${fps.toFixed(4)},scale=${width}:${height}`, "-f", "rawvideo", "-pix_fmt", "rgb24"];
	const args = [...clipStreamInputArgs(sourceUrl, start, duration, "0:v:0"), ...frames, "pipe:1"];
	const timeoutMs = jobTimeouts.faceScan(duration);
	await runProcess(tools.ffmpeg, args, { timeoutMs, signal, onStdoutBytes: framesOf(width * height * 3, onFrame) });
	return { samples, cuts: sceneCuts(thumbnails, fps), sourceAspect: source.width / source.height };
}

/** Cuts a raw video stream's chunks into whole frames of `frameBytes`, one call each, in order. */
function framesOf(frameBytes: number, onFrame: (frame: Buffer) => Promise<void>): (chunk: Buffer) => Promise<void> {
	let pending = Buffer.alloc(0);
	return async (chunk) => {
		pending = Buffer.concat([pending, chunk]);
		while (pending.length >= frameBytes) {
			const frame = pending.subarray(0, frameBytes);
			pending = pending.subarray(frameBytes);
			await onFrame(Buffer.from(frame));
		}
	};
}

/**
 * Mean absolute luma change (0-255) between two frames inside a face's mouth region: the lower
 * part of BlazeFace's box (it spans brows to chin), its middle half across. A talking mouth
 * changes there from sample to sample; a listening face barely does, whatever the lighting.
 */
export function mouthMotion(
	previous: Uint8Array,
	current: Uint8Array,
	width: number,
	height: number,
	face: FaceBox,
): number {
	const x0 = Math.max(0, Math.floor((face.x + face.width * 0.25) * width));
	const x1 = Math.min(width, Math.ceil((face.x + face.width * 0.75) * width));
	const y0 = Math.max(0, Math.floor((face.y + face.height * 0.6) * height));
	const y1 = Math.min(height, Math.ceil((face.y + face.height * 1.0) * height));
	let sum = 0;
	let count = 0;
	for (let y = y0; y < y1; y++) {
		for (let x = x0; x < x1; x++) {
			const i = (y * width + x) * 3;
			const luma = (c: Uint8Array) => (c[i]! * 299 + c[i + 1]! * 587 + c[i + 2]! * 114) / 1000;
			sum += Math.abs(luma(current) - luma(previous));
			count++;
		}
	}
	return count ? sum / count : 0;
}

const THUMB = 32;

/** A 32x18-ish grey thumbnail of a frame: enough to see a scene change, cheap to compare. */
function lumaThumbnail(frame: Buffer, width: number, height: number): Uint8Array {
	const rows = Math.max(1, Math.round((THUMB * height) / width));
	const out = new Uint8Array(THUMB * rows);
	for (let ty = 0; ty < rows; ty++) {
		for (let tx = 0; tx < THUMB; tx++) {
			const x = Math.floor(((tx + 0.5) * width) / THUMB);
			const y = Math.floor(((ty + 0.5) * height) / rows);
			const i = (y * width + x) * 3;
			out[ty * THUMB + tx] = (frame[i]! * 299 + frame[i + 1]! * 587 + frame[i + 2]! * 114) / 1000;
		}
	}
	return out;
}

/** Mean absolute difference of consecutive thumbnails (0-255) above which the shot changed. */
export const CUT_THRESHOLD = 40;

/** Sample times (s) at which a new shot starts. */
export function sceneCuts(thumbnails: Uint8Array[], fps: number): number[] {
	const cuts: number[] = [];
	for (let i = 1; i < thumbnails.length; i++) {
		const a = thumbnails[i - 1]!;
		const b = thumbnails[i]!;
		let sum = 0;
		for (let p = 0; p < a.length; p++) sum += Math.abs(a[p]! - b[p]!);
		if (sum / a.length >= CUT_THRESHOLD) cuts.push(i / fps);
	}
	return cuts;
}
