/**
 * Candidate clips as passages of whole sentences: where a clip may start (never on a listener's
 * "Yeah.", never mid-word), where it may end (never on a question left hanging), the lead-in and
 * tail that keep first and last words whole, and the duration range every clip stays inside.
 */
import type { ConfigShape } from "@clipforge/domain";
import { continuityCurve, idfOf, passageStarts } from "../../text/cohesion.ts";
import type { Unit } from "../../text/units.ts";
import type { ReadPrompt } from "./prompt.ts";

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
	config: Pick<ConfigShape, "clipDurationMin" | "clipDurationMax">,
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
 *
 * A passage of whole sentences is cut at its last sentence's end. Where the range is narrower than
 * a sentence ("exactly 30 s" in talk without pauses), a passage a little too short is stretched to
 * the minimum into the talk that follows, but only when taking the next sentence whole would run
 * past the maximum: the only way a clip can start on that sentence at all.
 */
export class SpanSpace implements Iterable<Span> {
	/** Cut points of a passage starting at unit i / ending at unit j (lead-in and tail included). */
	readonly startAt: Float64Array;
	readonly endAt: Float64Array;
	readonly canStart: Uint8Array;
	readonly canEnd: Uint8Array;
	readonly units: Unit[];
	readonly bounds: Bounds;
	readonly frame: Frame;
	readonly search: Frame;

	constructor(units: Unit[], bounds: Bounds, frame: Frame, search: Frame = frame) {
		this.units = units;
		this.bounds = bounds;
		this.frame = frame;
		this.search = search;
		const n = units.length;
		this.startAt = new Float64Array(n);
		this.endAt = new Float64Array(n);
		this.canStart = new Uint8Array(n);
		this.canEnd = new Uint8Array(n);
		for (let k = 0; k < n; k++) {
			const u = units[k]!;
			this.startAt[k] = openingCut(units, k, frame);
			this.endAt[k] = padded(units, k, k, frame).end;
			this.canStart[k] = !u.backchannel && u.start >= search.start - 0.01 ? 1 : 0;
			// Never end on a listener's "Yeah." or on a question left hanging (the video's last words included).
			this.canEnd[k] = !u.backchannel && !u.question && u.end <= search.end + 0.01 ? 1 : 0;
		}
		this.closeLeaningStarts();
	}

	/**
	 * No clip opens on a sentence a clause opener binds to the one before it ("Because…", "Which
	 * means…"): it would start in the middle of a thought. Unless no other start makes a clip at all
	 * (every sentence opening on "because"): then they stay open, as a clip is owed.
	 */
	private closeLeaningStarts(): void {
		const closed = this.units.flatMap((u, k) => (this.canStart[k] && u.leansBack ? [k] : []));
		if (closed.length === 0) return;
		for (const k of closed) this.canStart[k] = 0;
		// The candidates are walked lazily: the first one found ends the check.
		if (this[Symbol.iterator]().next().done) for (const k of closed) this.canStart[k] = 1;
	}

	/**
	 * Where the passage from unit i to unit j is cut (seconds), or NaN when it is no candidate: it
	 * cannot end at j, is longer than the maximum, or is shorter than the minimum and cannot stretch.
	 */
	endOf(i: number, j: number): number {
		if (!this.canEnd[j]) return NaN;
		const { min, max } = this.bounds;
		const start = this.startAt[i]!;
		const end = Math.max(this.endAt[j]!, start);
		if (end - start > max + EPSILON) return NaN;
		if (end - start >= min - EPSILON) return end;
		// Only when the next sentence whole would overshoot the maximum (or there is none).
		const next = j + 1 < this.units.length ? this.endAt[j + 1]! - start : Infinity;
		const stretched = round2(start + min);
		const limit = Math.min(this.frame.end, this.search.end, start + next);
		return next > max + EPSILON && stretched <= limit + EPSILON ? stretched : NaN;
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
			for (let j = i; j < units.length; j++) {
				if (units[j]!.end - units[i]!.start > bounds.max) break;
				const end = this.endOf(i, j);
				if (!Number.isNaN(end)) fn(i, j, this.startAt[i]!, end);
			}
		}
	}

	/** The passage from unit i to unit j (a candidate: `endOf(i, j)` is a number). */
	span(i: number, j: number): Span {
		const end = this.endOf(i, j);
		return {
			i,
			j,
			start: this.startAt[i]!,
			end: Number.isNaN(end) ? Math.max(this.endAt[j]!, this.startAt[i]!) : end,
		};
	}

	*[Symbol.iterator](): Iterator<Span> {
		const { units, bounds } = this;
		for (let i = 0; i < units.length; i++) {
			if (!this.canStart[i]) continue;
			for (let j = i; j < units.length; j++) {
				if (units[j]!.end - units[i]!.start > bounds.max) break;
				if (!Number.isNaN(this.endOf(i, j))) yield this.span(i, j);
			}
		}
	}
}

const EPSILON = 1e-6;

/**
 * split-clips: consecutive parts covering the frame's talk, each within the range, ending on a
 * sentence end where the range allows. Parts end where topics do (`topicStarts`: the first unit of
 * each chapter) whenever the topic is long enough to be parts of its own; a topic shorter than the
 * minimum joins the next. Inside a topic, each part is as long as the range allows.
 *
 * Where the range is narrower than the sentences (5-5 s in talk without pauses), a part is cut at
 * exactly the minimum and the next starts where it ends. Never more than `most` parts: past that,
 * each part is longer (up to the maximum), so a frame of any length stays within the cap. A part
 * shorter than the minimum is mended (withShortPartsFixed); only the last part, when the talk left
 * at the end is too short and cannot join it, reaches back into the one before it (the one
 * overlap split-clips makes, by less than the minimum).
 */
export function splitIntoParts(
	units: Unit[],
	bounds: Bounds,
	frame: Frame,
	topicStarts: number[] = [],
	most = Infinity,
): Span[] {
	const all = padded(units, 0, units.length - 1, frame);
	// At most `most` parts: each at least this long.
	const floor = Math.min(bounds.max, Math.max(bounds.min, (all.end - all.start) / most));
	const range = { min: floor, max: bounds.max };
	const length = (i: number, j: number) => {
		const span = padded(units, i, j, frame);
		return span.end - span.start;
	};
	const cuts = [0];
	for (const b of [...topicStarts].sort((x, y) => x - y)) {
		if (b <= cuts[cuts.length - 1]! || b >= units.length) continue;
		if (length(cuts[cuts.length - 1]!, b - 1) >= range.min && length(b, units.length - 1) >= range.min)
			cuts.push(b);
	}
	const parts = cuts.flatMap((from, k) => splitRange(units, from, cuts[k + 1] ?? units.length, range, frame));
	// Mended to the range asked for: the longer floor only spaces the cuts, so a last part between the two is fine.
	return withShortPartsFixed(parts, units, bounds, frame).slice(0, Number.isFinite(most) ? most : undefined);
}

/** Units [from, to) as consecutive parts within the range, each ending on a sentence end where one fits. */
function splitRange(units: Unit[], from: number, to: number, bounds: Bounds, frame: Frame): Span[] {
	const parts: Span[] = [];
	const endAt = (j: number) => padded(units, j, j, frame).end;
	let first = from;
	let start = padded(units, from, from, frame).start;
	while (first < to) {
		let j = first;
		while (j + 1 < to && endAt(j + 1) - start <= bounds.max + EPSILON) j++;
		// Leave what remains long enough to be a part of its own, when the range allows it.
		while (
			j > first &&
			j + 1 < to &&
			endAt(to - 1) - padded(units, j + 1, j + 1, frame).start < bounds.min &&
			endAt(j - 1) - start >= bounds.min
		)
			j--;
		const end = endAt(j);
		if (end - start >= bounds.min - EPSILON || j + 1 >= to) {
			parts.push({ i: first, j, start: round2(start), end: round2(Math.min(end, start + bounds.max)) });
			first = j + 1;
			if (first < to) start = Math.max(end, padded(units, first, first, frame).start);
			continue;
		}
		// The next sentence whole would overshoot the maximum: cut inside it, at the minimum.
		const cut = round2(start + bounds.min);
		parts.push({ i: first, j, start: round2(start), end: cut });
		first = j + 1;
		while (first < to && units[first]!.end <= cut) first++;
		start = cut;
	}
	return parts;
}

/**
 * Every part at least the minimum: a short one joins its neighbour when both fit in the maximum,
 * else takes the minimum from the start of the next (which then starts later), and the last one
 * stretches into the silence after it, or reaches back into the one before it.
 */
function withShortPartsFixed(parts: Span[], units: Unit[], bounds: Bounds, frame: Frame): Span[] {
	const out = parts.map((p) => ({ ...p }));
	const short = (p: Span) => p.end - p.start < bounds.min - EPSILON;
	for (let k = 0; k < out.length; k++) {
		const part = out[k]!;
		if (!short(part)) continue;
		const next = out[k + 1];
		const before = out[k - 1];
		if (next && next.end - part.start <= bounds.max + EPSILON) {
			out.splice(k, 2, { i: part.i, j: next.j, start: part.start, end: next.end });
			k--;
		} else if (before && part.end - before.start <= bounds.max + EPSILON) {
			out.splice(k - 1, 2, { i: before.i, j: part.j, start: before.start, end: part.end });
			k -= 2;
		} else if (next) {
			part.end = round2(part.start + bounds.min);
			// Only ever later: the pause between two parts is no one's.
			next.start = Math.max(next.start, part.end);
			while (next.i < next.j && units[next.i]!.end <= next.start) next.i++;
		} else if (part.start + bounds.min <= frame.end + EPSILON) {
			part.end = round2(part.start + bounds.min);
		} else {
			part.start = round2(Math.max(frame.start, part.end - bounds.min));
			while (part.i > 0 && units[part.i - 1]!.end > part.start) part.i--;
		}
	}
	return out;
}

/**
 * Where a clip opening on unit k is cut: as `padded` cuts it, or after its opening connectives
 * ("So, last winter…" opens on "last"), halfway between the last one left out and the first word
 * kept, so none of it is heard. Only candidate passages open this way; split-clips' parts, which
 * cover the talk whole, do not.
 */
export function openingCut(units: Unit[], k: number, frame: Frame): number {
	const unit = units[k]!;
	const kept = unit.words[unit.openingWords];
	const left = unit.words[unit.openingWords - 1];
	if (unit.openingWords === 0 || !kept || !left) return padded(units, k, k, frame).start;
	return round2(Math.max(frame.start, kept.start - LEAD, (left.end + kept.start) / 2));
}

export const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) =>
	a.start < b.end && b.start < a.end;

const round2 = (n: number) => Math.round(n * 100) / 100;
