/**
 * Where clips open, over talk whose sentences open on connectives ("And", "So", "But then", "Um,
 * so") and clause openers ("Because", "Which"), punctuated or not, with pauses or none: no clip
 * opens on a word that leans on what came before. A connective is left out (the cut falls between
 * it and the next word, which the clip's transcript then opens on); a sentence a clause opener binds
 * to the one before is no clip's start, unless every sentence is one (a clip is still owed).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/worker/domain/video-config";
import { rankMoments } from "@clipforge/moments";
import type { Transcript } from "@clipforge/moments/text";

const SENTENCES = [
	"last winter I came home late and found my keys still on the desk at the office",
	"the landlord lives in another city and I called a locksmith who promised to come in an hour",
	"a neighbour I had never met invited me in for tea and we talked about her years as a nurse",
	"the reason bread goes stale is not that it dries out but that the starch crystallises again",
	"my grandfather built the boat himself from plans he ordered out of a magazine in nineteen sixty",
	"the study followed two thousand students for ten years and found the effect vanished by the third",
	"she looked at the contract and said there is no way we are signing this on a Friday",
	"we tried the cheaper supplier for a month and returns went up by a third",
	"the first time I played the level I jumped too early and fell straight into the lava",
	"our team lost the final by one point after leading the whole game",
];

const CONNECTIVE_OPENINGS = ["And", "So", "But then", "Um, so", "And also", "Then"];
const CLAUSE_OPENINGS = ["Because", "Which means", "Although"];
const LEANING = new Set(["and", "but", "so", "then", "also", "because", "which", "although", "um"]);

const talkOf = fc.record({
	sentences: fc.array(
		fc.record({
			line: fc.constantFrom(...SENTENCES),
			opening: fc.oneof(
				{ weight: 3, arbitrary: fc.constant("") },
				{ weight: 3, arbitrary: fc.constantFrom(...CONNECTIVE_OPENINGS) },
				{ weight: 1, arbitrary: fc.constantFrom(...CLAUSE_OPENINGS) },
			),
		}),
		{ minLength: 8, maxLength: 60 },
	),
	punctuated: fc.boolean(),
	pause: fc.constantFrom(0, 0.3, 0.8),
	wordSeconds: fc.double({ min: 0.2, max: 0.45, noNaN: true }),
	range: fc.constantFrom([15, 60], [15, 40], [20, 90], [10, 30]),
});

type Talk = typeof talkOf extends fc.Arbitrary<infer T> ? T : never;

/** One segment per sentence, words timed back to back, `pause` seconds between sentences. */
function transcriptOf(talk: Talk, language = "en"): Transcript {
	let at = 0.5;
	const segments = talk.sentences.map(({ line, opening }) => {
		const text = `${opening} ${line}`.trim();
		const said = talk.punctuated ? `${text.charAt(0).toUpperCase()}${text.slice(1)}.` : text.toLowerCase();
		const words = said.split(" ").map((word) => {
			const w = { word, start: at, end: at + talk.wordSeconds };
			at = w.end;
			return w;
		});
		at += talk.pause;
		return { start: words[0]!.start, end: words[words.length - 1]!.end, text: said, words };
	});
	return {
		language,
		duration: at + 1,
		text: segments.map((s) => s.text).join(" "),
		segments,
		words: segments.flatMap((s) => s.words),
	};
}

const bare = (word: string) => word.toLowerCase().replace(/[^\p{L}']/gu, "");

describe("where clips open (property)", () => {
	it("never on a connective or a clause opener, and never inside a word", async () => {
		await fc.assert(
			fc.asyncProperty(talkOf, async (talk) => {
				const transcript = transcriptOf(talk);
				const [min, max] = talk.range;
				const outcome = await rankMoments(transcript, {
					...defaultConfig(),
					clipDurationMin: min!,
					clipDurationMax: max!,
				});
				expect(outcome.clips.length).toBeGreaterThan(0);
				const everySentenceBound = talk.sentences.every((s) => CLAUSE_OPENINGS.includes(s.opening));
				for (const clip of outcome.clips) {
					const first = transcript.words.find((w) => w.start >= clip.start - 0.01)!;
					const context = JSON.stringify({
						start: clip.start,
						first: first.word,
						text: clip.transcript.slice(0, 60),
					});
					expect(
						transcript.words.some((w) => w.start < clip.start - 0.01 && w.end > clip.start + 0.01),
						context,
					).toBe(false);
					if (everySentenceBound) continue;
					expect(LEANING.has(bare(first.word)), context).toBe(false);
					expect(LEANING.has(bare(clip.transcript.split(" ")[0]!)), context).toBe(false);
					expect(clip.transcript.toLowerCase().startsWith(bare(first.word)), context).toBe(true);
				}
			}),
			{ numRuns: 60 },
		);
	}, 120_000);

	it("still gives a clip when every sentence opens on a clause opener", async () => {
		const talk: Talk = {
			sentences: SENTENCES.map((line) => ({ line, opening: "Because" })),
			punctuated: true,
			pause: 0.3,
			wordSeconds: 0.3,
			range: [15, 60],
		};
		const outcome = await rankMoments(transcriptOf(talk), defaultConfig());
		expect(outcome.clips.length).toBeGreaterThan(0);
	});

	it("opens a story said as 'So, last winter…' on 'Last winter', capitalised as the sentence was", async () => {
		const talk: Talk = {
			sentences: SENTENCES.map((line, k) => ({ line, opening: k === 0 ? "So," : "" })),
			punctuated: true,
			pause: 0.8,
			wordSeconds: 0.3,
			range: [15, 60],
		};
		const transcript = transcriptOf(talk);
		const outcome = await rankMoments(transcript, defaultConfig());
		const opening = outcome.clips.find((c) => c.start < transcript.segments[0]!.end);
		expect(opening?.transcript).toMatch(/^Last winter I came home/);
		expect(opening!.start).toBeGreaterThanOrEqual(transcript.words[0]!.end);
	});

	it("leaves out the connectives of the talk's own language ('Entonces,', 'तो,'), and only of it", async () => {
		const spanish = [
			"el invierno pasado llegué tarde a casa y las llaves seguían en la oficina",
			"el casero vive en otra ciudad así que llamé a un cerrajero",
			"una vecina que no conocía me invitó a tomar un té en su cocina",
			"hablamos dos horas de sus años como enfermera en el hospital",
			"cuando llegó el cerrajero abrió la puerta en cuatro segundos",
			"me cobró noventa dólares pero ahora ceno con ella cada domingo",
		];
		const hindi = [
			"पिछली सर्दियों में मैं देर से घर आया और चाबियाँ दफ्तर में रह गईं",
			"मकान मालिक दूसरे शहर में रहते हैं इसलिए मैंने ताला खोलने वाले को बुलाया",
			"एक पड़ोसन ने मुझे अपनी रसोई में चाय पर बुलाया",
			"हमने दो घंटे अस्पताल में उनके काम के बारे में बात की",
			"ताला खोलने वाले ने चार सेकंड में दरवाज़ा खोल दिया",
			"अब हम हर रविवार साथ खाना खाते हैं",
		];
		for (const [language, lines, opening] of [
			["es", spanish, "Entonces,"],
			["hi", hindi, "तो,"],
		] as const) {
			// Every sentence opens on the connective: whichever a clip starts on, it leaves it out.
			const talk: Talk = {
				sentences: [...lines, ...lines].map((line) => ({ line, opening })),
				punctuated: true,
				pause: 0.8,
				wordSeconds: 0.3,
				range: [15, 60],
			};
			const transcript = transcriptOf(talk, language);
			const said = new Set([...lines].map((line) => line.split(" ")[0]!));
			const { clips } = await rankMoments(transcript, defaultConfig());
			expect(clips.length, language).toBeGreaterThan(0);
			for (const clip of clips)
				expect(said.has(clip.transcript.split(" ")[0]!.toLowerCase()), clip.transcript).toBe(true);
			// Read as English, "Entonces," is no connective: every clip opens on it.
			const asEnglish = await rankMoments({ ...transcript, language: "en" }, defaultConfig());
			for (const clip of asEnglish.clips) expect(clip.transcript.startsWith(opening), clip.transcript).toBe(true);
		}
	});
});
