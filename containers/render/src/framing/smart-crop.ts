/**
 * Smart crop: turns face detections on sampled frames into a smooth crop path, and the path into
 * an ffmpeg crop expression. Pure, so tracking, smoothing and the pan-speed bound are unit-tested.
 *
 * The crop window keeps the output's aspect ratio at the largest size that fits the source, so it
 * can only slide along one axis (x when the output is narrower than the source, y when wider).
 * Its position there is `p` in 0-1 (0 = left/top edge, 1 = right/bottom edge, 0.5 = centre crop).
 */

/** A detected face; box in fractions of the frame (0-1). */
export interface FaceBox {
	x: number;
	y: number;
	width: number;
	height: number;
	score: number;
	/** Mouth-region change since the previous sample (0-255 luma), for the speaker layouts. */
	motion?: number;
}

export interface FaceSample {
	/** Seconds from the clip's start. */
	t: number;
	faces: FaceBox[];
}

export interface CropKeyframe {
	t: number;
	p: number;
}

export interface CropPlan {
	axis: "x" | "y";
	/** Crop size along the axis as a fraction of the source (e.g. 0.316 for 9:16 out of 16:9). */
	size: number;
	keyframes: CropKeyframe[];
	/** Samples on which the followed face was seen. */
	faceSamples: number;
}

/** A face farther than this (fraction of the frame) from the tracked one is another person. */
const SAME_FACE_DISTANCE = 0.2;
/** How long the crop holds a face that is no longer detected (a turned head, a blink of the detector). */
const HOLD_SECONDS = 1.5;
/** Centred moving average over this many samples: removes detector jitter, no lag on steady motion. */
const SMOOTHING_WINDOW = 5;
/** Fastest pan, in crop widths per second: quick enough to follow a walking speaker, never a whip. */
export const MAX_PAN_CROP_WIDTHS_PER_SECOND = 0.6;
/** Path simplification tolerance in `p` units (≈ 5 px on a 1080p source's free range). */
const SIMPLIFY_TOLERANCE = 0.004;

/**
 * @param sourceAspect source width / height
 * @param targetAspect output (or split-screen top box) width / height
 * @returns null when the crop cannot move (same aspect ratio: nothing is cropped)
 */
export function planCrop(
	samples: FaceSample[],
	cuts: number[],
	sourceAspect: number,
	targetAspect: number,
): CropPlan | null {
	const axis = targetAspect < sourceAspect ? "x" : "y";
	const size = axis === "x" ? targetAspect / sourceAspect : sourceAspect / targetAspect;
	if (size > 0.99) return null;
	const ordered = [...samples].sort((a, b) => a.t - b.t);
	const boundaries = [...cuts].sort((a, b) => a - b);
	const segments: FaceSample[][] = [];
	for (const sample of ordered) {
		const startsShot = boundaries.some((cut) => cut > (segments.at(-1)?.at(-1)?.t ?? -Infinity) && cut <= sample.t);
		if (segments.length === 0 || startsShot) segments.push([]);
		segments.at(-1)!.push(sample);
	}
	const keyframes: CropKeyframe[] = [];
	let faceSamples = 0;
	for (const segment of segments) {
		const { centres, seen } = trackMainFace(segment, axis);
		faceSamples += seen;
		const positions = centres.map((c) => positionFor(c, size));
		const smooth = boundPanSpeed(
			segment.map((s) => s.t),
			movingAverage(positions, SMOOTHING_WINDOW),
			size,
		);
		const first = segment[0]!;
		// A cut jumps: the previous shot's position holds until just before the new shot's first frame.
		if (keyframes.length > 0) keyframes.push({ t: first.t - 0.001, p: keyframes.at(-1)!.p });
		segment.forEach((s, i) => keyframes.push({ t: s.t, p: smooth[i]! }));
	}
	return { axis, size, keyframes: simplify(keyframes, SIMPLIFY_TOLERANCE), faceSamples };
}

/**
 * The centre (along the axis) of the face followed in each sample of one shot: the biggest, most
 * confident face first, then whichever face stays nearest to it; held for HOLD_SECONDS when lost;
 * 0.5 (centre) for a shot where no face is ever seen.
 */
function trackMainFace(shot: FaceSample[], axis: "x" | "y"): { centres: number[]; seen: number } {
	const centreOf = (f: FaceBox) => (axis === "x" ? f.x + f.width / 2 : f.y + f.height * 0.4);
	const raw: (number | null)[] = [];
	let tracked: number | null = null;
	let lastSeen = -Infinity;
	let seen = 0;
	for (const sample of shot) {
		const faces = sample.faces.filter((f) => f.score >= 0.5);
		let pick: FaceBox | undefined;
		if (tracked !== null) {
			const near = faces.filter((f) => Math.abs(centreOf(f) - tracked!) < SAME_FACE_DISTANCE);
			pick = near.sort((a, b) => Math.abs(centreOf(a) - tracked!) - Math.abs(centreOf(b) - tracked!))[0];
		}
		pick ??= faces.sort((a, b) => b.width * b.height * b.score - a.width * a.height * a.score)[0];
		if (pick) {
			tracked = centreOf(pick);
			lastSeen = sample.t;
			seen++;
			raw.push(tracked);
		} else {
			raw.push(tracked !== null && sample.t - lastSeen <= HOLD_SECONDS ? tracked : null);
		}
	}
	// Fill gaps with the nearest known centre (earlier first): the crop never drifts on its own.
	const known = raw.map((c, i) => (c === null ? null : i)).filter((i): i is number => i !== null);
	if (known.length === 0) return { centres: shot.map(() => 0.5), seen };
	const centres = raw.map(
		(c, i) => c ?? raw[known.reduce((best, k) => (Math.abs(k - i) < Math.abs(best - i) ? k : best))]!,
	);
	return { centres, seen };
}

/** Crop position (0-1) that centres `centre` in a window of `size`, clamped inside the frame. */
export function positionFor(centre: number, size: number): number {
	const start = Math.min(Math.max(centre - size / 2, 0), 1 - size);
	return start / (1 - size);
}

/** Centred average; near the ends the window shrinks symmetrically, so steady motion gets no lag there either. */
function movingAverage(values: number[], window: number): number[] {
	return values.map((_, i) => {
		const half = Math.min(Math.floor(window / 2), i, values.length - 1 - i);
		const from = i - half;
		const to = i + half + 1;
		const slice = values.slice(from, to);
		return slice.reduce((a, b) => a + b, 0) / slice.length;
	});
}

/** Caps how fast `p` changes so the crop pans at most MAX_PAN crop widths per second. */
export function boundPanSpeed(times: number[], positions: number[], size: number): number[] {
	const maxPerSecond = (MAX_PAN_CROP_WIDTHS_PER_SECOND * size) / (1 - size);
	const out = [...positions];
	for (let i = 1; i < out.length; i++) {
		const limit = maxPerSecond * (times[i]! - times[i - 1]!);
		out[i] = Math.min(Math.max(out[i]!, out[i - 1]! - limit), out[i - 1]! + limit);
	}
	return out;
}

/** Ramer-Douglas-Peucker on (t, p): fewer keyframes, same path within `tolerance`. */
function simplify(points: CropKeyframe[], tolerance: number): CropKeyframe[] {
	if (points.length <= 2) return points;
	const first = points[0]!;
	const last = points.at(-1)!;
	let worst = 0;
	let worstIndex = 0;
	for (let i = 1; i < points.length - 1; i++) {
		const pt = points[i]!;
		const along = last.t === first.t ? 0 : (pt.t - first.t) / (last.t - first.t);
		const error = Math.abs(pt.p - (first.p + (last.p - first.p) * along));
		if (error > worst) [worst, worstIndex] = [error, i];
	}
	if (worst <= tolerance) return [first, last];
	return [
		...simplify(points.slice(0, worstIndex + 1), tolerance).slice(0, -1),
		...simplify(points.slice(worstIndex), tolerance),
	];
}

/** The path as a piecewise-linear ffmpeg expression of `t` (seconds), evaluated per frame. */
export function positionExpression(keyframes: CropKeyframe[]): string {
	if (keyframes.length === 0) return "0.5";
	const n = (v: number) => Number(v.toFixed(4)).toString();
	let expression = n(keyframes.at(-1)!.p);
	for (let i = keyframes.length - 2; i >= 0; i--) {
		const a = keyframes[i]!;
		const b = keyframes[i + 1]!;
		const slope = b.t > a.t ? (b.p - a.p) / (b.t - a.t) : 0;
		expression = `if(lt(t\\,${n(b.t)})\\,${n(a.p)}+${n(slope)}*(t-${n(a.t)})\\,${expression})`;
	}
	return keyframes[0]!.t > 0
		? `if(lt(t\\,${n(keyframes[0]!.t)})\\,${n(keyframes[0]!.p)}\\,${expression})`
		: expression;
}

/** Where the crop window sits at time t (the same path the expression describes). */
export function positionAt(keyframes: CropKeyframe[], t: number): number {
	if (keyframes.length === 0) return 0.5;
	if (t <= keyframes[0]!.t) return keyframes[0]!.p;
	for (let i = 0; i + 1 < keyframes.length; i++) {
		const a = keyframes[i]!;
		const b = keyframes[i + 1]!;
		if (t < b.t) return b.t > a.t ? a.p + ((b.p - a.p) * (t - a.t)) / (b.t - a.t) : a.p;
	}
	return keyframes.at(-1)!.p;
}
