/**
 * Transcripts of any shape a recognizer can return, for property tests of the ranker: one segment
 * or many, punctuated or not, with pauses or none, words of 0.1-1 s, chatter (greetings, sign-offs,
 * housekeeping) at the start, the end, the middle, between every sentence, or everywhere, and
 * speech from seconds to hours. The sentences are drawn from two pools; what is tested is the shape.
 */
import fc from "fast-check";
import type { Transcript } from "@clipforge/moments/text";

/** Lines of talk with something in them: events, explanations, opinions, exchanges. */
const CONTENT = [
	"last winter I came home late and found my keys still on the desk at the office",
	"the landlord lives in another city so I called a locksmith who promised to come in an hour",
	"a neighbour I had never met invited me in for tea and we talked about her years as a nurse",
	"when the locksmith finally came he opened the door in four seconds and charged me ninety dollars",
	"the reason bread goes stale is not that it dries out but that the starch crystallises again",
	"if you put it in the fridge it goes stale three times faster than on the counter",
	"my grandfather built the boat himself from plans he ordered out of a magazine in nineteen sixty",
	"it sank on its first trip across the lake and he swam back laughing with the oars",
	"the study followed two thousand students for ten years and found the effect vanished by the third",
	"what surprised the researchers was that the control group improved just as much",
	"I think the whole idea of a five paragraph essay teaches people to pad instead of think",
	"she looked at the contract and said there is no way we are signing this on a Friday",
	"we tried the cheaper supplier for a month and returns went up by a third",
	"so the plan is to move the launch to March and use the time to fix the onboarding",
	"the first time I played the level I jumped too early and fell straight into the lava",
	"he told me the trick is to wait for the second beat of the music before you jump",
	"the museum had a painting that nobody noticed was hung upside down for forty years",
	"a child on a school trip asked why the signature was at the top and the guard laughed",
	"our team lost the final by one point after leading the whole game",
	"the coach said nothing in the locker room and just handed everyone a cold drink",
];

/** Chatter as shows and meetings say it: greetings, sign-offs, housekeeping. */
const CHATTER = [
	"welcome back to the show",
	"hi everyone and welcome to the podcast",
	"good morning everybody how are you",
	"thanks for listening and see you next week",
	"thanks for watching take care bye",
	"we're back thanks for sticking around",
	"this episode is brought to you by our sponsor",
	"okay we have ten minutes left",
];

export type ChatterPlace = "none" | "start" | "end" | "frame" | "middle" | "interleaved" | "everywhere";

export interface ShapeSpec {
	speechSeconds: number;
	chatter: ChatterPlace;
	punctuated: boolean;
	pauses: boolean;
	wordSeconds: [number, number];
	segments: "one" | "sentences" | "windows";
	seed: number;
}

export interface ShapedTranscript {
	transcript: Transcript;
	/** Each sentence's span and whether it is chatter. */
	sentences: { start: number; end: number; chatter: boolean }[];
}

/** Speech of 5 s to 3 h, mostly short (most uploads are minutes long; hours are the costly tail). */
export const speechSeconds = fc.oneof(
	{ weight: 6, arbitrary: fc.integer({ min: 5, max: 240 }) },
	{ weight: 3, arbitrary: fc.integer({ min: 240, max: 1800 }) },
	{ weight: 1, arbitrary: fc.integer({ min: 1800, max: 3 * 3600 }) },
);

export const shapeSpec = (seconds: fc.Arbitrary<number> = speechSeconds): fc.Arbitrary<ShapeSpec> =>
	fc.record({
		speechSeconds: seconds,
		chatter: fc.constantFrom<ChatterPlace>("none", "start", "end", "frame", "middle", "interleaved", "everywhere"),
		punctuated: fc.boolean(),
		pauses: fc.boolean(),
		wordSeconds: fc
			.tuple(fc.double({ min: 0.1, max: 1, noNaN: true }), fc.double({ min: 0, max: 0.5, noNaN: true }))
			.map(([lo, spread]): [number, number] => [lo, Math.min(1, lo + spread)]),
		segments: fc.constantFrom<ShapeSpec["segments"]>("one", "sentences", "windows"),
		seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
	});

export function shapedTranscript(spec: ShapeSpec): ShapedTranscript {
	const random = mulberry32(spec.seed);
	const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
	const [lo, hi] = spec.wordSeconds;
	const meanWord = (lo + hi) / 2;
	// Sentences until the speech is long enough, chatter placed as asked.
	const lines: { text: string; chatter: boolean }[] = [];
	let seconds = 0;
	while (seconds < spec.speechSeconds || lines.length === 0) {
		const k = lines.length;
		const chatter =
			spec.chatter === "everywhere" ||
			(spec.chatter === "interleaved" && k % 2 === 0) ||
			((spec.chatter === "start" || spec.chatter === "frame") && k === 0);
		const text = chatter ? pick(CHATTER) : pick(CONTENT);
		lines.push({ text, chatter });
		seconds += text.split(" ").length * meanWord;
	}
	if (spec.chatter === "end" || spec.chatter === "frame") lines.push({ text: pick(CHATTER), chatter: true });
	if (spec.chatter === "middle")
		lines.splice(Math.floor(lines.length / 2), 0, { text: pick(CHATTER), chatter: true });

	const segments: Transcript["segments"] = [];
	const sentences: ShapedTranscript["sentences"] = [];
	let words: Transcript["words"] = [];
	let t = 0.3 + random();
	const windowSeconds = 5 + random() * 25;
	const flush = () => {
		if (words.length === 0) return;
		segments.push({
			start: words[0]!.start,
			end: words[words.length - 1]!.end,
			text: words.map((w) => w.word).join(" "),
			words,
		});
		words = [];
	};
	for (const line of lines) {
		const tokens = line.text.split(" ");
		const start = t;
		tokens.forEach((token, k) => {
			let word = token;
			if (spec.punctuated && k === 0) word = word[0]!.toUpperCase() + word.slice(1);
			if (spec.punctuated && k === tokens.length - 1) word += ".";
			const length = lo + random() * (hi - lo);
			words.push({ word, start: round3(t), end: round3(t + length) });
			t += length + random() * 0.04;
			if (spec.segments === "windows" && t - words[0]!.start >= windowSeconds) flush();
		});
		sentences.push({ start, end: t, chatter: line.chatter });
		t += spec.pauses ? 0.3 + random() * 1.2 : random() * 0.05;
		if (spec.segments === "sentences") flush();
	}
	flush();
	const all = segments.flatMap((s) => s.words);
	return {
		transcript: {
			language: "en",
			duration: round3(t + 0.5 + random() * 3),
			text: segments.map((s) => s.text).join(" "),
			segments,
			words: all,
		},
		sentences,
	};
}

function mulberry32(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let x = a;
		x = Math.imul(x ^ (x >>> 15), x | 1);
		x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
		return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
	};
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;
