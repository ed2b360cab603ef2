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
export function durationBounds(config: Pick<VideoConfig, "clipDurationMin" | "clipDurationMax">, prompt: ReadPrompt | null): Bounds {
	let { clipDurationMin: min, clipDurationMax: max } = config;
	if (prompt?.maxSeconds) max = Math.max(min, Math.min(max, prompt.maxSeconds));
	if (prompt?.minSeconds) min = Math.min(max, Math.max(min, prompt.minSeconds));
	return { min, max };
}

/** Where clips may lie: all of the frame, or the part the prompt names ("skip the intro", "the last half"). */
export function searchWindow(units: Unit[], prompt: ReadPrompt | null, frame: Frame): Frame {
	if (!prompt) return frame;
	const length = frame.end - frame.start;
	let start = frame.start + prompt.within[0] * length;
	const end = frame.start + prompt.within[1] * length;
	if (prompt.skipIntro) {
		// The intro is the first passage (a topic shift ends it), or the first minute when none shows.
		const starts = passageStarts(units, continuityCurve(units, idfOf(units), 60));
		const second = starts[1] !== undefined ? units[starts[1]]!.start : frame.start + 60;
		start = Math.max(start, Math.min(second, frame.start + 0.25 * length));
	}
	return { start, end };
}

/**
 * The passage from unit i to unit j with its lead-in and tail, inside the frame and taking at most
 * half of the silence on either side, so neighbouring words stay out and adjacent clips never overlap.
 */
export function padded(units: Unit[], i: number, j: number, frame: Frame): Span {
	const start = Math.max(frame.start, units[i]!.start - LEAD, i > 0 ? (units[i - 1]!.end + units[i]!.start) / 2 : -Infinity);
	const end = Math.min(frame.end, units[j]!.end + TAIL, j + 1 < units.length ? (units[j]!.end + units[j + 1]!.start) / 2 : Infinity);
	return { i, j, start: round2(start), end: Math.max(round2(end), round2(start)) };
}

/** Every passage that may be a clip: clean start, complete end, inside the range and the search window. */
export function candidateSpans(units: Unit[], bounds: Bounds, frame: Frame, search: Frame = frame): Span[] {
	const spans: Span[] = [];
	for (let i = 0; i < units.length; i++) {
		if (units[i]!.backchannel || units[i]!.start < search.start - 0.01) continue;
		for (let j = i; j < units.length; j++) {
			if (units[j]!.end - units[i]!.start > bounds.max || units[j]!.end > search.end + 0.01) break;
			const last = units[j]!;
			if (last.backchannel || (last.question && j + 1 < units.length)) continue;
			const span = padded(units, i, j, frame);
			const length = span.end - span.start;
			if (length >= bounds.min - 1e-6 && length <= bounds.max + 1e-6) spans.push(span);
		}
	}
	return spans;
}

/** split-clips: consecutive parts covering the frame, each within the range, ending on a sentence end. */
export function splitIntoParts(units: Unit[], bounds: Bounds, frame: Frame): Span[] {
	const parts: Span[] = [];
	const length = (i: number, j: number) => {
		const span = padded(units, i, j, frame);
		return span.end - span.start;
	};
	let first = 0;
	while (first < units.length) {
		let j = first;
		while (j + 1 < units.length && length(first, j + 1) <= bounds.max) j++;
		// Leave what remains long enough to be a part of its own, when the range allows it.
		while (j > first && j + 1 < units.length && length(j + 1, units.length - 1) < bounds.min && length(first, j - 1) >= bounds.min) j--;
		parts.push(padded(units, first, j, frame));
		first = j + 1;
	}
	const last = parts[parts.length - 1];
	const before = parts[parts.length - 2];
	// A short tail joins the previous part when it fits, else stands alone.
	if (last && before && last.end - last.start < bounds.min && length(before.i, last.j) <= bounds.max) parts.splice(parts.length - 2, 2, padded(units, before.i, last.j, frame));
	return parts;
}

export const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) => a.start < b.end && b.start < a.end;

const round2 = (n: number) => Math.round(n * 100) / 100;
