/** How the benchmark scores clips against annotated passages. Pure functions. */
export interface Span {
	start: number;
	end: number;
}

export function iou(a: Span, b: Span): number {
	const inter = Math.max(0, Math.min(a.end, b.end) - Math.max(a.start, b.start));
	const union = Math.max(a.end, b.end) - Math.min(a.start, b.start);
	return union > 0 ? inter / union : 0;
}

/** Seconds of `clip` inside any of `spans` (spans may not overlap each other). */
export function secondsInside(clip: Span, spans: Span[]): number {
	return spans.reduce((sum, s) => sum + Math.max(0, Math.min(clip.end, s.end) - Math.max(clip.start, s.start)), 0);
}

/** A clip "contains the answer" when at least half of it lies inside the annotated answer passages. */
export function answers(clip: Span, spans: Span[]): boolean {
	return secondsInside(clip, spans) >= 0.5 * (clip.end - clip.start);
}

export const round3 = (n: number) => Math.round(n * 1000) / 1000;
export const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);
