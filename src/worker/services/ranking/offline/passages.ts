/**
 * Candidate clips as passages of whole sentences: where a clip may start (never on a listener's
 * "Yeah.", never mid-word), where it may end (never on a question left hanging), the lead-in and
 * tail that keep first and last words whole, and the duration range every clip stays inside.
 */
import type { VideoConfig } from "../../../domain/video-config";
import { continuityCurve, idfOf, passageStarts } from "../text/cohesion";
import type { Unit } from "../text/units";
import type { ReadPrompt } from "./prompt";

/** Seconds of lead-in before the first word and tail after the last, so no word is clipped. */
export const LEAD = 0.2;
export const TAIL = 0.4;

export interface Span {
	/** First and last sentence (unit index). */
	i: number;
	j: number;
	/** Cut points in seconds, lead-in and tail included. */
	start: number;
	end: number;
}

export interface Bounds {
	min: number;
	max: number;
}

export interface Frame {
	start: number;
	end: number;
}

/** The config's duration range, narrowed by the prompt ("under 30 s") but never widened. */
export function durationBounds(
	config: Pick<VideoConfig, "clipDurationMin" | "clipDurationMax">,
	prompt: ReadPrompt | null,
): Bounds {
	let { clipDurationMin: min, clipDurationMax: max } = config;
	if (prompt?.maxSeconds) max = Math.max(min, Math.min(max, prompt.maxSeconds));
	if (prompt?.minSeconds) min = Math.min(max, Math.max(min, prompt.minSeconds));
	return { min, max };
}

/**
 * Where clips may lie: all of the frame, or the part the prompt names ("after the intro", "the
 * second half", "in the last ten minutes" of the frame, "after minute 20" of the video).
 */
export function searchWindow(units: Unit[], prompt: ReadPrompt | null, frame: Frame): Frame {
	if (!prompt) return frame;
	const length = frame.end - frame.start;
	let start = frame.start + prompt.within[0] * length;
	let end = frame.start + prompt.within[1] * length;
	if (prompt.firstSeconds !== null) end = Math.min(end, frame.start + prompt.firstSeconds);
	if (prompt.lastSeconds !== null) start = Math.max(start, frame.end - prompt.lastSeconds);
	if (prompt.afterSeconds !== null) start = Math.max(start, prompt.afterSeconds);
	if (prompt.beforeSeconds !== null) end = Math.min(end, prompt.beforeSeconds);
	if (prompt.skipIntro && units.length > 0) {
		// The intro is the first passage (a topic shift ends it), or the first minute when none shows.
		const starts = passageStarts(units, continuityCurve(units, idfOf(units), 60));
		const second = starts[1] !== undefined ? units[starts[1]]!.start : frame.start + 60;
		start = Math.max(start, Math.min(second, frame.start + 0.25 * length));
	}
	return { start, end: Math.max(start, end) };
}

/**
 * The passage from unit i to unit j with its lead-in and tail, inside the frame and taking at most
 * half of the silence on either side, so neighbouring words stay out and adjacent clips never overlap.
 */
export function padded(units: Unit[], i: number, j: number, frame: Frame): Span {
	const start = Math.max(
		frame.start,
		units[i]!.start - LEAD,
		i > 0 ? (units[i - 1]!.end + units[i]!.start) / 2 : -Infinity,
	);
	const end = Math.min(
		frame.end,
		units[j]!.end + TAIL,
		j + 1 < units.length ? (units[j]!.end + units[j + 1]!.start) / 2 : Infinity,
	);
	return { i, j, start: round2(start), end: Math.max(round2(end), round2(start)) };
}

/**
 * Every passage that may be a clip (clean start, complete end, inside the range and the search
 * window), never held in memory at once: 3 hours at 5-600 s are about 600,000 of them. `visit`
 * walks them with numbers only; iterating yields them as Span objects, one at a time.
 */
export class SpanSpace implements Iterable<Span> {
	/** Cut points of a passage starting at unit i / ending at unit j (lead-in and tail included). */
	readonly startAt: Float64Array;
	readonly endAt: Float64Array;
	readonly canStart: Uint8Array;
	readonly canEnd: Uint8Array;

	constructor(
		readonly units: Unit[],
		readonly bounds: Bounds,
		readonly frame: Frame,
		readonly search: Frame = frame,
	) {
		const n = units.length;
		this.startAt = new Float64Array(n);
		this.endAt = new Float64Array(n);
		this.canStart = new Uint8Array(n);
		this.canEnd = new Uint8Array(n);
		for (let k = 0; k < n; k++) {
			const u = units[k]!;
			this.startAt[k] = padded(units, k, k, frame).start;
			this.endAt[k] = padded(units, k, k, frame).end;
			this.canStart[k] = !u.backchannel && u.start >= search.start - 0.01 ? 1 : 0;
			// Never end on a listener's "Yeah." or on a question left hanging (the video's last words included).
			this.canEnd[k] = !u.backchannel && !u.question && u.end <= search.end + 0.01 ? 1 : 0;
		}
	}

	/** Calls `fn(i, j, start, end)` for every candidate passage, in order of i then j. */
	visit(fn: (i: number, j: number, start: number, end: number) => void): void {
		this.visitStartingAt(0, this.units.length - 1, fn);
	}

	/** The same for passages whose first unit lies in [from, to]. */
	visitStartingAt(from: number, to: number, fn: (i: number, j: number, start: number, end: number) => void): void {
		const { units, bounds } = this;
		for (let i = Math.max(0, from); i <= Math.min(to, units.length - 1); i++) {
			if (!this.canStart[i]) continue;
			const start = this.startAt[i]!;
			for (let j = i; j < units.length; j++) {
				if (units[j]!.end - units[i]!.start > bounds.max) break;
				if (!this.canEnd[j]) continue;
				const end = Math.max(this.endAt[j]!, start);
				const length = end - start;
				if (length >= bounds.min - 1e-6 && length <= bounds.max + 1e-6) fn(i, j, start, end);
			}
		}
	}

	span(i: number, j: number): Span {
		return { i, j, start: this.startAt[i]!, end: Math.max(this.endAt[j]!, this.startAt[i]!) };
	}

	*[Symbol.iterator](): Iterator<Span> {
		const { units, bounds } = this;
		for (let i = 0; i < units.length; i++) {
			if (!this.canStart[i]) continue;
			for (let j = i; j < units.length; j++) {
				if (units[j]!.end - units[i]!.start > bounds.max) break;
				if (!this.canEnd[j]) continue;
				const span = this.span(i, j);
				const length = span.end - span.start;
				if (length >= bounds.min - 1e-6 && length <= bounds.max + 1e-6) yield span;
			}
		}
	}
}

/**
 * split-clips: consecutive parts covering the frame, each within the range, ending on a sentence
 * end. Parts end where topics do (`topicStarts`: the first unit of each chapter) whenever the topic
 * is long enough to be parts of its own; a topic shorter than the minimum joins the next. Inside a
 * topic, each part is as long as the range allows.
 */
export function splitIntoParts(units: Unit[], bounds: Bounds, frame: Frame, topicStarts: number[] = []): Span[] {
	const length = (i: number, j: number) => {
		const span = padded(units, i, j, frame);
		return span.end - span.start;
	};
	const cuts = [0];
	for (const b of [...topicStarts].sort((x, y) => x - y)) {
		if (b <= cuts[cuts.length - 1]! || b >= units.length) continue;
		if (length(cuts[cuts.length - 1]!, b - 1) >= bounds.min && length(b, units.length - 1) >= bounds.min)
			cuts.push(b);
	}
	return cuts.flatMap((from, k) => splitRange(units, from, cuts[k + 1] ?? units.length, bounds, frame, length));
}

/** Units [from, to) as consecutive parts within the range, each ending on a sentence end. */
function splitRange(
	units: Unit[],
	from: number,
	to: number,
	bounds: Bounds,
	frame: Frame,
	length: (i: number, j: number) => number,
): Span[] {
	const parts: Span[] = [];
	let first = from;
	while (first < to) {
		let j = first;
		while (j + 1 < to && length(first, j + 1) <= bounds.max) j++;
		// Leave what remains long enough to be a part of its own, when the range allows it.
		while (j > first && j + 1 < to && length(j + 1, to - 1) < bounds.min && length(first, j - 1) >= bounds.min) j--;
		parts.push(padded(units, first, j, frame));
		first = j + 1;
	}
	const last = parts[parts.length - 1];
	const before = parts[parts.length - 2];
	// A short tail joins the previous part when it fits, else stands alone.
	if (last && before && last.end - last.start < bounds.min && length(before.i, last.j) <= bounds.max)
		parts.splice(parts.length - 2, 2, padded(units, before.i, last.j, frame));
	return parts;
}

export const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) =>
	a.start < b.end && b.start < a.end;

const round2 = (n: number) => Math.round(n * 100) / 100;
