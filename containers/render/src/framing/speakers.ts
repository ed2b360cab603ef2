/**
 * Speaker layouts for two-person sources: who is speaking when (audio energy × mouth motion per
 * face), turned into crop cuts that hold each speaker at least MIN_HOLD_SECONDS (follow-speaker),
 * or into two fixed face crops stacked top and bottom (stacked). Pure, like smart-crop.ts, so the
 * rules are unit-tested without media (test/speakers.test.ts).
 */
import type { Box, PixelRect } from "../ffmpeg/geometry.ts";
import { positionFor, type CropKeyframe, type CropPlan, type FaceBox, type FaceSample } from "./smart-crop.ts";
import type { ChannelEnergy } from "./speech-energy.ts";

/** Shortest time the crop stays on one speaker inside a shot: cuts faster than this read as ping-pong. */
export const MIN_HOLD_SECONDS = 1.5;
/** The other person must win this long before the crop cuts to them (one loud word is not a turn). */
const CONFIRM_SECONDS = 0.5;
/** Share of sampled frames with two faces above which a clip "has two people" (auto's condition). */
export const TWO_FACE_SHARE = 0.6;
/** Share of voiced samples with a clear speaker above which auto follows the speaker instead of stacking. */
export const DECIDED_SHARE = 0.5;
/** A face this close (fraction of the frame) to a person's usual place is that person. */
const SAME_PERSON_DISTANCE = 0.15;
/** The winner's score must be this many times the other's. */
const WIN_RATIO = 1.5;
/** Added to mouth motion so a still picture still lets the audio (a panned channel) decide. */
const MOTION_FLOOR = 0.5;
/** RMS below which nobody speaks (≈ -46 dBFS). */
const SILENCE_RMS = 0.005;
const MIN_FACE_SCORE = 0.5;

/** A stretch of one shot shown on one person (index into its shot's persons; -1: nobody, centre). */
export interface SpeakerTurn {
	from: number;
	to: number;
	person: number;
	/** That person's usual face box in the shot, null when the shot has no face. */
	box: FaceBox | null;
}

export interface SpeakerAnalysis {
	/** Share of samples with at least two faces. */
	twoFaceShare: number;
	/** The two people (left, then right) over the whole clip, when there are two. */
	pair: [FaceBox, FaceBox] | null;
	/** Share of voiced two-person samples on which one speaker clearly won. */
	decidedShare: number;
	turns: SpeakerTurn[];
}

export interface SpeakerInput {
	samples: FaceSample[];
	/** Channel energy per sample (same order), null when the source has no audio. */
	energy: ChannelEnergy[] | null;
	/** Scene cuts (s): the speaker decision starts over at each. */
	cuts: number[];
	duration: number;
}

/**
 * Who is on screen when. Inside each shot the people are found by where their faces usually are;
 * each sample scores each person by the audio energy on their side (a centred person gets both
 * channels equally) times their mouth motion; a smoothed clear winner held for CONFIRM_SECONDS
 * becomes the next turn, never sooner than MIN_HOLD_SECONDS after the previous cut.
 */
export function analyseSpeakers({ samples, energy, cuts, duration }: SpeakerInput): SpeakerAnalysis {
	const indexed = samples.map((s, i) => ({
		...s,
		faces: s.faces.filter((f) => f.score >= MIN_FACE_SCORE),
		energy: energy?.[i] ?? null,
	}));
	const withTwo = indexed.filter((s) => s.faces.length >= 2);
	const twoFaceShare = samples.length ? withTwo.length / samples.length : 0;
	const pair = withTwo.length ? medianPair(withTwo) : null;
	const turns: SpeakerTurn[] = [];
	let voiced = 0;
	let decided = 0;
	const shots = shotsOf(indexed, cuts);
	shots.forEach((shot, n) => {
		const from = n === 0 ? 0 : shot[0]!.t;
		const to = n + 1 < shots.length ? shots[n + 1]![0]!.t : duration;
		const persons = personsOf(shot);
		if (persons.length === 0) {
			turns.push({ from, to, person: -1, box: null });
			return;
		}
		if (persons.length === 1 || (!energy && shot.every((s) => s.faces.every((f) => !f.motion)))) {
			turns.push({ from, to, person: 0, box: persons[0]! });
			return;
		}
		const votes = winnersOf(scoresOf(shot, persons));
		voiced += votes.voiced;
		decided += votes.decided;
		turns.push(...shotTurns(shot, persons, votes.winners, from, to));
	});
	if (turns.length === 0) turns.push({ from: 0, to: duration, person: -1, box: null });
	return { twoFaceShare, pair, decidedShare: voiced ? decided / voiced : 0, turns };
}

/** A sample with its faces and the audio energy per channel at its time. */
type Sample = FaceSample & { energy: ChannelEnergy | null };

/** The people of a shot: two when two faces are there often enough, else its main face, else none. */
function personsOf(shot: Sample[]): FaceBox[] {
	const shotTwo = shot.filter((s) => s.faces.length >= 2);
	if (shotTwo.length >= Math.max(1, shot.length / 3)) return medianPair(shotTwo);
	if (!shot.some((s) => s.faces.length)) return [];
	return [medianBox(shot.flatMap((s) => (s.faces.length ? [largest(s.faces)] : [])))];
}

/** Each sample's score per person: the energy on their side times their mouth motion (0 when silent). */
function scoresOf(shot: Sample[], persons: FaceBox[]): number[][] {
	return shot.map((s) => {
		const isVoiced = s.energy === null || Math.max(...s.energy) >= SILENCE_RMS;
		return persons.map((person) => {
			if (!isVoiced) return 0;
			const c = centreX(person);
			const near = s.faces.filter((f) => Math.abs(centreX(f) - c) < SAME_PERSON_DISTANCE);
			const face = near.sort((a, b) => Math.abs(centreX(a) - c) - Math.abs(centreX(b) - c))[0];
			const side = s.energy ? (1 - c) * s.energy[0] + c * s.energy[1] : 1;
			return side * ((face?.motion ?? 0) + MOTION_FLOOR);
		});
	});
}

/** Per sample, the person whose smoothed score clearly wins (or null); how many samples were voiced, and decided. */
function winnersOf(scores: number[][]): { winners: (number | null)[]; voiced: number; decided: number } {
	let voiced = 0;
	let decided = 0;
	const smooth = scores.map((row, i) =>
		row.map((__, k) => [i - 1, i, i + 1].reduce((sum, j) => sum + (scores[j]?.[k] ?? 0), 0)),
	);
	const winners = smooth.map((row, i) => {
		const isVoiced = scores[i]!.some((v) => v > 0);
		if (isVoiced) voiced++;
		const [a, b] = row as [number, number];
		const winner = a > 0 && a >= WIN_RATIO * b ? 0 : b > 0 && b >= WIN_RATIO * a ? 1 : null;
		if (isVoiced && winner !== null) decided++;
		return winner;
	});
	return { winners, voiced, decided };
}

/**
 * The turns inside a shot: a new speaker's run of wins held for CONFIRM_SECONDS becomes a turn,
 * cut where they began (as an editor would) but never within MIN_HOLD_SECONDS of the last cut or
 * of the shot's end.
 */
function shotTurns(
	shot: Sample[],
	persons: FaceBox[],
	winners: (number | null)[],
	from: number,
	to: number,
): SpeakerTurn[] {
	const turns: SpeakerTurn[] = [];
	let current = winners.find((w) => w !== null) ?? (area(persons[0]!) >= area(persons[1]!) ? 0 : 1);
	let turnStart = from;
	let runStart: number | null = null;
	let lastOther = -Infinity;
	shot.forEach((s, i) => {
		const w = winners[i];
		if (w === null || w === undefined) return;
		if (w === current) {
			runStart = null;
			return;
		}
		if (runStart === null || s.t - lastOther > CONFIRM_SECONDS) runStart = s.t;
		lastOther = s.t;
		if (s.t - runStart < CONFIRM_SECONDS - 1e-6) return;
		const cutAt = Math.max(runStart, turnStart + MIN_HOLD_SECONDS);
		if (cutAt > s.t || to - cutAt < MIN_HOLD_SECONDS) return;
		turns.push({ from: turnStart, to: cutAt, person: current, box: persons[current]! });
		current = w;
		turnStart = cutAt;
		runStart = null;
	});
	turns.push({ from: turnStart, to, person: current, box: persons[current]! });
	return turns;
}

/** Turns as a crop path that cuts (never pans) between speakers: constant position inside a turn. */
export function speakerCropPlan(turns: SpeakerTurn[], sourceAspect: number, targetAspect: number): CropPlan | null {
	const axis = targetAspect < sourceAspect ? "x" : "y";
	const size = axis === "x" ? targetAspect / sourceAspect : sourceAspect / targetAspect;
	if (size > 0.99) return null;
	const keyframes: CropKeyframe[] = [];
	for (const turn of turns) {
		const centre = turn.box ? (axis === "x" ? centreX(turn.box) : turn.box.y + turn.box.height * 0.4) : 0.5;
		const p = positionFor(centre, size);
		if (keyframes.length > 0) keyframes.push({ t: turn.from - 0.001, p: keyframes.at(-1)!.p });
		keyframes.push({ t: turn.from, p });
	}
	return { axis, size, keyframes, faceSamples: turns.filter((t) => t.box).length };
}

/**
 * The stacked layout's two crops: each person's face with room for hair and shoulders (the bigger
 * face about a third of the crop's height, both crops the same size, faces a little above the
 * middle), in the aspect of its half of the frame, kept inside the source. Never tighter than 45%
 * of the source height (upscaling blurs).
 */
export function stackedCrops(pair: [FaceBox, FaceBox], source: Box, half: Box): [PixelRect, PixelRect] {
	const aspect = half.width / half.height;
	const even = (n: number) => Math.max(0, Math.floor(n / 2) * 2);
	// One size for both crops (from the bigger face): the two people appear at the same scale.
	const faceHeight = Math.max(pair[0].height, pair[1].height) * source.height;
	const rect = (face: FaceBox): PixelRect => {
		let height = Math.max(faceHeight * 3, source.height * 0.45);
		height = Math.min(height, source.height, source.width / aspect);
		const width = even(height * aspect);
		height = even(height);
		const cx = centreX(face) * source.width;
		const cy = (face.y + face.height * 0.5) * source.height;
		// Sizes first, then the position clamped with them: rounding never pushes a crop off the frame.
		const x = Math.min(Math.max(even(cx - width / 2), 0), source.width - width);
		const y = Math.min(Math.max(even(cy - height * 0.42), 0), source.height - height);
		return { x, y, width, height };
	};
	return [rect(pair[0]), rect(pair[1])];
}

const centreX = (f: FaceBox) => f.x + f.width / 2;
const area = (f: FaceBox) => f.width * f.height;
const largest = (faces: FaceBox[]) => faces.reduce((a, b) => (area(b) * b.score > area(a) * a.score ? b : a));

/** The two biggest faces of each sample, left one first, as the median left and right boxes. */
function medianPair(samples: FaceSample[]): [FaceBox, FaceBox] {
	const lefts: FaceBox[] = [];
	const rights: FaceBox[] = [];
	for (const s of samples) {
		const [a, b] = [...s.faces].sort((p, q) => area(q) - area(p));
		const [l, r] = centreX(a!) <= centreX(b!) ? [a!, b!] : [b!, a!];
		lefts.push(l);
		rights.push(r);
	}
	return [medianBox(lefts), medianBox(rights)];
}

function medianBox(boxes: FaceBox[]): FaceBox {
	const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
	return {
		x: median(boxes.map((b) => b.x)),
		y: median(boxes.map((b) => b.y)),
		width: median(boxes.map((b) => b.width)),
		height: median(boxes.map((b) => b.height)),
		score: median(boxes.map((b) => b.score)),
	};
}

/** Samples split at the scene cuts (a cut starts a new shot at the first sample at or after it). */
function shotsOf<T extends FaceSample>(samples: T[], cuts: number[]): T[][] {
	const shots: T[][] = [];
	const boundaries = [...cuts].sort((a, b) => a - b);
	for (const sample of [...samples].sort((a, b) => a.t - b.t)) {
		const previous = shots.at(-1)?.at(-1)?.t ?? -Infinity;
		if (shots.length === 0 || boundaries.some((cut) => cut > previous && cut <= sample.t)) shots.push([]);
		shots.at(-1)!.push(sample);
	}
	return shots;
}
