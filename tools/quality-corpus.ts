/**
 * A synthetic corpus for judging rankers apart from speech recognition: long transcripts (20-60
 * min, four genres) of ordinary passages, with highlight passages planted at random positions.
 * Deterministic (seeded), so every run measures the same thing.
 *
 * Ordinary passages are deliberately not bland throughout: some open with a question or carry a
 * number or an emotional word (distractors), so a ranker keyed on one cue alone does not win.
 * A highlight is what editors pick: a hooky opening, a specific, emotionally charged middle on one
 * topic, a clean conclusion, and (in the signals) a louder delivery.
 */
import type { Segment, Word } from "@clipforge/contract";
import type { AudioSignals } from "../src/worker/services/ranking/features.ts";
import type { Transcript } from "../src/worker/services/transcription/transcript.ts";

export type CorpusGenre = "Podcast" | "Education" | "Gaming" | "Entertainment";

export interface CorpusItem {
	id: string;
	genre: CorpusGenre;
	transcript: Transcript;
	signals: AudioSignals;
	highlights: { start: number; end: number }[];
}

/** Mulberry32: a small seeded PRNG. */
function prng(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const TOPICS: Record<CorpusGenre, string[]> = {
	Podcast: ["sleep", "burnout", "money", "friendship", "habits", "career", "parenting", "fitness"],
	Education: ["photosynthesis", "derivatives", "inflation", "vaccines", "gravity", "algorithms", "grammar", "volcanoes"],
	Gaming: ["speedrun", "boss", "loadout", "ranked", "strategy", "glitch", "tournament", "sniper"],
	Entertainment: ["prank", "audition", "wedding", "roadtrip", "cooking", "dating", "concert", "magic"],
};

/** Ordinary speech, composed from parts so that sentences rarely repeat word for word. */
const OPENERS = ["so", "and", "well", "I mean", "basically", "then", "okay so", "right, and", "anyway", "honestly"];
const SUBJECTS = ["we", "the team", "my colleague", "everyone in the room", "the group", "our manager", "a friend of mine", "the people upstairs", "the other crew", "my brother"];
const VERBS = ["talked about", "went over", "looked at", "spent some time on", "checked", "moved on to", "came back to", "wrote down", "sorted out", "argued a bit about"];
const OBJECTS = ["the schedule", "the {t} notes", "the next item", "the budget sheet", "the room setup", "the order of things", "the plan for tuesday", "the shared folder", "the {t} part", "the usual paperwork", "the parking", "the lunch order"];
const TAILS = ["for a while", "before the break", "in the afternoon", "after lunch", "for maybe an hour", "like we always do", "without much fuss", "near the end", "at some point", "the whole morning"];

function ordinarySentence(pick: <T>(list: T[]) => T): string {
	return `${pick(OPENERS)} ${pick(SUBJECTS)} ${pick(VERBS)} ${pick(OBJECTS)} ${pick(TAILS)}`;
}

/** Distractors: ordinary lines that carry one cue a hook would also carry. */
const DISTRACTORS: string[] = [
	"what time did we start again, was it nine or ten",
	"there were maybe twenty people at the {t} meeting",
	"you can find the slides on the shared drive later",
	"it was a nice day overall, pretty good weather",
	"but the parking situation was the usual story",
	"I had three cups of coffee before noon",
];

const HOOKS: string[] = [
	"Did you know that {n} out of ten people get {t} completely wrong?",
	"Why does nobody talk about the real truth behind {t}?",
	"Here is the secret about {t} that changed everything for me.",
	"Stop doing this one thing with {t}, it is the biggest mistake you can make.",
	"What if everything you were told about {t} is actually wrong?",
	"You will never look at {t} the same way after this.",
];

const BODIES: string[] = [
	"The first time I tried it with {t} I was shocked, it was an absolute disaster.",
	"I lost {n} hundred dollars and honestly I was furious about the whole {t} thing.",
	"Then something incredible happened and the {t} results were amazing.",
	"Most experts say {t} is simple, but the data on {t} tells a completely different story.",
	"People love to argue about {t}, and the fights get really ugly.",
	"The best part is that fixing {t} takes only {n} minutes a day.",
	"I was terrified, but the {t} breakthrough made me so happy.",
	"It sounds crazy, but {t} is the single most important skill nobody teaches.",
];

const CONCLUSIONS: string[] = [
	"So remember this: fix your {t} first and everything else follows.",
	"That is the lesson, and it works every single time.",
	"Try it this week and tell me what happens.",
	"And that is why {t} matters more than anything else.",
];

const NUMBERS = ["three", "seven", "five", "eight", "two", "nine"];

export function buildCorpus(count = 24, seed = 20261121): CorpusItem[] {
	const genres: CorpusGenre[] = ["Podcast", "Education", "Gaming", "Entertainment"];
	return Array.from({ length: count }, (_, n) => buildItem(`t${String(n + 1).padStart(2, "0")}`, genres[n % genres.length]!, prng(seed + n * 7919)));
}

function buildItem(id: string, genre: CorpusGenre, random: () => number): CorpusItem {
	const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
	const minutes = 20 + Math.floor(random() * 41);
	const duration = minutes * 60;
	const topics = TOPICS[genre];
	const fill = (template: string, topic: string) => template.replace(/\{t\}/g, topic).replace(/\{n\}/g, pick(NUMBERS));

	// Five highlight slots at random places, at least two minutes apart.
	const slots: number[] = [];
	while (slots.length < 5) {
		const at = 60 + random() * (duration - 180);
		if (slots.every((s) => Math.abs(s - at) > 150)) slots.push(at);
	}
	slots.sort((a, b) => a - b);

	const segments: Segment[] = [];
	const highlights: { start: number; end: number }[] = [];
	const loud: [number, number][] = [];
	let t = 0.5;
	const say = (text: string, wordsPerSecond: number) => {
		const words: Word[] = text.split(/\s+/).map((word) => {
			const length = (0.6 + random() * 0.8) / wordsPerSecond;
			const w = { word, start: round3(t), end: round3(t + length * 0.9) };
			t += length;
			return w;
		});
		segments.push({ start: words[0]!.start, end: words[words.length - 1]!.end, text, words });
		t += 0.35 + random() * 0.5; // pause between sentences
	};
	const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

	let next = 0;
	while (t < duration - 20) {
		if (next < slots.length && t >= slots[next]!) {
			const topic = pick(topics);
			const start = t;
			say(fill(pick(HOOKS), topic), 3);
			const bodyCount = 4 + Math.floor(random() * 5);
			for (let i = 0; i < bodyCount; i++) say(fill(pick(BODIES), topic), 3.1);
			say(fill(pick(CONCLUSIONS), topic), 2.9);
			highlights.push({ start: round3(start), end: round3(segments[segments.length - 1]!.end) });
			loud.push([start, t]);
			next++;
			continue;
		}
		const template = random() < 0.15 ? pick(DISTRACTORS) : ordinarySentence(pick);
		say(`${capital(fill(template, pick(topics)))}.`, 2.2 + random() * 0.6);
	}

	const words = segments.flatMap((s) => s.words);
	const transcript: Transcript = { language: "en", duration, text: segments.map((s) => s.text).join(" "), segments, words };
	const speaking = new Uint8Array(Math.ceil(duration * 2));
	for (const s of segments) for (let i = Math.max(0, Math.floor((s.start - 0.25) * 2)); i <= Math.min(speaking.length - 1, Math.ceil((s.end + 0.25) * 2)); i++) speaking[i] = 1;
	const loudness = Array.from(speaking, (isSpeech, i) => {
		const base = isSpeech ? -24 + random() * 3 : -45;
		return isSpeech && loud.some(([a, b]) => i / 2 >= a && i / 2 < b) ? base + 5 + random() * 4 : base;
	});
	return { id, genre, transcript, signals: { intervalSeconds: 0.5, loudness }, highlights };
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;
