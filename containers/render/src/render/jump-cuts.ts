/**
 * Remove silences: the pauses the Worker found in the transcript (already shortened by the padding
 * it keeps around words) become jump cuts in the clip's one ffmpeg pass. Pure planning here (which
 * stretches are kept, on the video's frame grid, and where each word lands afterwards); the probe
 * and silencedetect that confirm the pauses run in silences.ts, before the plan (inputs.ts).
 *
 * Why the frame grid: video can only be cut between frames, audio anywhere. Cutting both at the
 * same multiples of 1/fps (the graph first brings the video to that constant rate) removes exactly
 * the same time from each, so sound and picture stay in sync however many cuts there are.
 */
import { retimeWords, type Interval, type JumpCutSpec, type Word } from "@clipforge/contract";
import type { JumpCutArgs } from "../ffmpeg/clip-args.ts";

/** A cut shorter than this is not worth a jump (it would read as a glitch). */
export const MIN_CUT_SECONDS = 0.15;

/** What the source says about cutting it (silences.ts): its frame rate, whether it has sound, where it is silent. */
export interface CutInputs {
	stream: { frameRate: string; hasAudio: boolean };
	/** What silencedetect heard as silent (seconds from the clip's start); null when not asked or without sound. */
	silences: Interval[] | null;
}

/** The cuts of one clip: the plan, the graph's arguments for it, and the clip's words on the cut timeline. */
export interface PreparedCuts {
	plan: JumpCutPlan;
	args: JumpCutArgs;
	/** The clip's words on the cut timeline. */
	words: Word[] | null;
}

/** The transcript's pauses that start inside the clip (the only ones that can be cut). */
export const pausesWithin = (spec: Required<JumpCutSpec>, duration: number): Interval[] =>
	spec.pauses.filter((p) => p.start < duration);

/**
 * The clip's cuts from the request's pauses and what the source said of them (null: there was
 * nothing to read, so nothing to cut); null when nothing is cut.
 * @param fixedFps The rate the graph uses anyway (split-screen's 30), or null to keep the source's.
 */
export function prepareJumpCuts(
	spec: Required<JumpCutSpec>,
	duration: number,
	inputs: CutInputs | null,
	words: Word[] | null,
	fixedFps: number | null,
): PreparedCuts | null {
	const pauses = pausesWithin(spec, duration);
	if (!inputs || pauses.length === 0) return null;
	const { stream, silences } = inputs;
	const rate = fixedFps ? { fps: fixedFps, expression: String(fixedFps) } : frameRateOf(stream.frameRate);
	const plan = planJumpCuts(pauses, duration, rate.fps, silences);
	if (plan.cuts.length === 0) return null;
	return {
		plan,
		args: { keeps: plan.keeps, fps: rate.expression, duration: plan.duration, audio: stream.hasAudio },
		words: words ? retimeWords(words, plan.cuts) : null,
	};
}

export interface JumpCutPlan {
	/** Stretches of the clip kept, in order, from its start (seconds on the source's timeline). */
	keeps: Interval[];
	/** Stretches removed. */
	cuts: Interval[];
	/** Seconds the clip lasts after the cuts. */
	duration: number;
	removed: number;
}

/**
 * Plans the cuts: each pause is narrowed to what the audio confirms as silent (when `silences` is
 * given), snapped inwards to the frame grid of `fps` frames per second, and dropped when shorter
 * than MIN_CUT_SECONDS.
 * @example planJumpCuts([{ start: 2.1, end: 3.9 }], 6, 25, null).keeps // [{0, 2.12}, {3.88, 6}]
 */
export function planJumpCuts(
	pauses: Interval[],
	duration: number,
	fps: number,
	silences: Interval[] | null,
): JumpCutPlan {
	const frame = 1 / fps;
	const candidates = silences
		? pauses.flatMap((p) =>
				silences.map((s) => ({ start: Math.max(p.start, s.start), end: Math.min(p.end, s.end) })),
			)
		: pauses;
	const cuts: Interval[] = [];
	for (const c of candidates
		.map((p) => ({ start: Math.max(0, p.start), end: Math.min(duration, p.end) }))
		.sort((a, b) => a.start - b.start)) {
		// Inwards: a cut never eats into a word, even by a frame.
		const start = Math.ceil(c.start / frame - 1e-6) * frame;
		const end = Math.floor(c.end / frame + 1e-6) * frame;
		if (end - start < MIN_CUT_SECONDS - 1e-9) continue;
		const last = cuts.at(-1);
		if (last && start <= last.end) last.end = Math.max(last.end, end);
		else cuts.push({ start: round6(start), end: round6(end) });
	}
	const keeps: Interval[] = [];
	let at = 0;
	for (const cut of cuts) {
		if (cut.start > at) keeps.push({ start: round6(at), end: cut.start });
		at = cut.end;
	}
	if (duration > at) keeps.push({ start: round6(at), end: duration });
	const removed = round6(cuts.reduce((sum, c) => sum + (c.end - c.start), 0));
	return { keeps, cuts, duration: round6(duration - removed), removed };
}

/**
 * `silence_start: 1.23` / `silence_end: 2.34 | silence_duration: …` lines of ffmpeg's silencedetect
 * (stderr) as intervals; a silence still open at the end runs to `duration`.
 */
export function parseSilences(log: string, duration: number): Interval[] {
	const out: Interval[] = [];
	let open: number | null = null;
	for (const line of log.split("\n")) {
		const start = /silence_start: (-?[\d.]+)/.exec(line);
		const end = /silence_end: (-?[\d.]+)/.exec(line);
		if (start) open = Math.max(0, Number(start[1]));
		if (end && open !== null) {
			out.push({ start: open, end: Number(end[1]) });
			open = null;
		}
	}
	if (open !== null && duration > open) out.push({ start: open, end: duration });
	return out.filter((i) => i.end > i.start);
}

/** A frame rate as ffprobe prints it (`30000/1001`), kept within what a clip may sensibly have. */
export function frameRateOf(text: string): { fps: number; expression: string } {
	const [num, den] = text.trim().split("/").map(Number);
	const fps = num && den ? num / den : Number.NaN;
	if (!Number.isFinite(fps) || fps < 10 || fps > 60) return { fps: 30, expression: "30" };
	return { fps, expression: den === 1 ? String(num) : `${num}/${den}` };
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;
