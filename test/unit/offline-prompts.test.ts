/**
 * Prompts read as a person means them (issue "Clips a person would post"): each case here failed
 * before its fix.
 */
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/worker/domain/video-config";
import { readPrompt } from "@clipforge/moments/ranking/offline/prompt";
import { rankOffline } from "@clipforge/moments/ranking/offline/rank-offline";
import { unitsOf } from "@clipforge/moments/text/units";
import { DEMO_TALK } from "../helpers/demo-talk";
import { CONFESSION_TURNS, GARDEN_EPISODE } from "../helpers/garden-episode";
import { longTranscriptOf, spanOfTurns, transcriptOf } from "../helpers/talk";

const config = { ...defaultConfig(), clipDurationMin: 15, clipDurationMax: 90 };

/** The prompt matched: no note, or only the one saying no further passage matches (short talk has room for more clips than it has answers). */
const expectMatched = (note: string | null) =>
	expect(note ?? "Only 1 clip: no other passage").toMatch(/^Only \d+ clips?: no other passage/);
const garden = transcriptOf(GARDEN_EPISODE);

describe("prompt words that are also listening sounds", () => {
	it("are found in the transcript as the prompt reads them: 'the part about the man' finds the old man named Walter", () => {
		const outcome = rankOffline(DEMO_TALK, {
			...config,
			clipDurationMin: 10,
			clipDurationMax: 30,
			customPrompt: "the part about the man",
		});
		expectMatched(outcome.note);
		expect(outcome.clips[0]!.transcript).toMatch(/old man named walter/);
	});

	it.each(["god", "thanks", "great", "nice", "sure", "interesting"])(
		"'%s' in a prompt matches the sentence that says it",
		(word) => {
			const talk = transcriptOf([
				["A", "We spent the whole morning cleaning out the garage and sorting the boxes."],
				["B", "Mm-hmm."],
				[
					"A",
					`The ${word} part was the letter we found in the bottom box, from my grandfather to my grandmother in 1952.`,
				],
				["B", "Wow."],
				["A", "Then we drove the old couch to the dump and had lunch at the diner by the bridge."],
				["B", "Right."],
				["A", "After that we painted the fence, two coats, and the neighbour's dog supervised the whole time."],
			]);
			const outcome = rankOffline(talk, {
				...config,
				clipDurationMin: 5,
				clipDurationMax: 15,
				customPrompt: `the ${word} part`,
			});
			expectMatched(outcome.note);
			expect(outcome.clips[0]!.transcript).toMatch(new RegExp(`\\b${word}\\b`, "i"));
			expect(unitsOf(talk).find((u) => u.text.includes(word))!.keys.length).toBeGreaterThan(0);
		},
	);
});

describe("negation and exclusions", () => {
	it("reads 'skip the arguing, just what they agreed' as: leave out the arguing, keep the agreement", () => {
		const read = readPrompt("Skip the arguing, just what they agreed");
		expect(read.excluded.moods).toEqual(["heated"]);
		expect(read.moods).toEqual(["decided"]);
		expect(read.terms.map((t) => t.word)).not.toContain("skip");
	});

	it("reads 'not the whole debate' as a mood to leave out, not one to look for", () => {
		const read = readPrompt("not the whole debate");
		expect(read.moods).not.toContain("heated");
		expect(read.excluded.moods).toContain("heated");
		expect(read.terms).toEqual([]);
	});

	it("pushes what it leaves out away: 'not the pumpkin contest' returns clips without it", () => {
		const { clips } = rankOffline(garden, { ...config, customPrompt: "not the pumpkin contest" });
		expect(clips.length).toBeGreaterThan(0);
		for (const clip of clips) expect(clip.transcript).not.toMatch(/pumpkin/i);
		const confession = spanOfTurns(garden, ...CONFESSION_TURNS);
		expect(
			clips.some((c) => c.start < confession.end && confession.start < c.end && c.transcript.includes("truth")),
		).toBe(false);
	});
});

describe("places in the video", () => {
	it("parses first or last N minutes, halves and after the intro", () => {
		expect(readPrompt("in the last ten minutes")).toMatchObject({ lastSeconds: 600, terms: [] });
		expect(readPrompt("the compost, in the first 5 minutes")).toMatchObject({
			firstSeconds: 300,
			terms: [{ word: "compost" }],
		});
		expect(readPrompt("anything about taxes after minute 20")).toMatchObject({
			afterSeconds: 1200,
			terms: [{ word: "taxes" }],
		});
		expect(readPrompt("the second half")).toMatchObject({ within: [0.5, 1] });
		expect(readPrompt("What were the professor's concluding comments?")).toMatchObject({ within: [0.75, 1] });
		expect(readPrompt("her final thoughts on the budget")).toMatchObject({
			within: [0.75, 1],
			terms: [{ word: "budget" }],
		});
		expect(readPrompt("the chair's opening remarks")).toMatchObject({ within: [0, 0.25] });
		expect(readPrompt("after the intro, the best story")).toMatchObject({ skipIntro: true, moods: ["story"] });
	});

	it("keeps every clip inside 'the last ten minutes'", () => {
		const talk = longTranscriptOf(GARDEN_EPISODE, 30);
		const { clips } = rankOffline(talk, { ...config, customPrompt: "in the last ten minutes" });
		expect(clips.length).toBeGreaterThan(0);
		for (const clip of clips) expect(clip.start).toBeGreaterThanOrEqual(talk.duration - 600 - 1e-6);
	});

	it("looks for 'closing thoughts' in the last quarter", () => {
		const talk = longTranscriptOf(GARDEN_EPISODE, 30);
		const { clips } = rankOffline(talk, { ...config, customPrompt: "their closing thoughts" });
		expect(clips.length).toBeGreaterThan(0);
		for (const clip of clips) expect(clip.start).toBeGreaterThanOrEqual(talk.duration * 0.75 - 1e-6);
	});
});

describe("who spoke, which the transcript does not record", () => {
	it("reads 'the professor's concluding comments' as a speaker and a place, with no topic", () => {
		expect(readPrompt("What were the professor's concluding comments?")).toMatchObject({
			within: [0.75, 1],
			terms: [{ stem: "professor", weight: 0.3, speaker: true }],
		});
		const take = readPrompt("Grad A's take on the vectors");
		expect(take.terms.filter((t) => !t.speaker).map((t) => t.word)).toEqual(["vectors"]);
		expect(readPrompt("the CEO's resignation").terms.map((t) => [t.word, t.weight])).toEqual([
			["ceo's", 1],
			["resignation", 1],
		]);
	});

	it("answers a prompt that names only an unsaid speaker and a place with the best moments there, and says why", () => {
		const talk = longTranscriptOf(GARDEN_EPISODE, 30);
		const outcome = rankOffline(talk, {
			...config,
			customPrompt: "What were the professor's concluding comments?",
		});
		expect(outcome.clips.length).toBeGreaterThan(0);
		for (const clip of outcome.clips) expect(clip.start).toBeGreaterThanOrEqual(talk.duration * 0.75 - 1e-6);
		expect(outcome.note).toMatch(/does not say who is speaking, so "professor"/);
	});

	it("still answers 'what did the host say' with no clips when a topic is asked and not said", () => {
		const outcome = rankOffline(garden, {
			...config,
			customPrompt: "What did the professor think about the budget?",
		});
		expect(outcome.clips).toEqual([]);
		expect(outcome.note).toMatch(/none of .*budget/);
	});
});

describe("numbers said as words or digits", () => {
	it("matches 'the 12 second mean' to a transcript that says 'twelve second mean'", () => {
		const talk = transcriptOf([
			["A", "We spent the week on the noise estimate and the new training set from the lab."],
			["B", "Okay."],
			["A", "Then we tried a twelve second mean over the spectrum, and the errors dropped by a third."],
			["B", "Really?"],
			["A", "Yes, and the longer window made it worse again, so we kept the short one for now."],
			["A", "After lunch we went through the budget for the conference trip and the hotel."],
			["B", "Sure."],
			["A", "The hotel is close to the venue, so nobody needs a car, and the train is cheap."],
		]);
		const outcome = rankOffline(talk, {
			...config,
			clipDurationMin: 5,
			clipDurationMax: 20,
			customPrompt: "the 12 second mean",
		});
		expectMatched(outcome.note);
		expect(outcome.clips[0]!.transcript).toMatch(/twelve second mean/);
	});
});

describe("hyphenated words, written whole, hyphenated or apart", () => {
	const talk = (backEnd: string) =>
		transcriptOf([
			["A", "We spent the morning on the new logo and the colours for the landing page."],
			["B", "Okay."],
			["A", "The designers want a darker blue, and the marketing team wants the old font back."],
			["B", "Right."],
			[
				"A",
				`Then the ${backEnd} rewrite: the servers kept timing out, so we moved the queue to its own machine.`,
			],
			["B", "Really?"],
			["A", `Yes, and the ${backEnd} is twice as fast now, the database stopped locking up every night.`],
			["A", "After lunch we planned the team trip to the coast and booked the hotel by the harbour."],
			["B", "Sure."],
			["A", "The hotel is close to the beach, so nobody needs a car, and the train is cheap."],
		]);

	for (const [prompt, said] of [
		["what changed in the back-end", "back end"],
		["what changed in the back-end", "backend"],
		["what changed in the backend", "back-end"],
	] as const) {
		it(`finds "${said}" for "${prompt}"`, () => {
			const outcome = rankOffline(talk(said), {
				...config,
				clipDurationMin: 5,
				clipDurationMax: 20,
				customPrompt: prompt,
			});
			expectMatched(outcome.note);
			expect(outcome.clips[0]!.transcript).toContain(`${said} rewrite`);
		});
	}

	it("reads the hyphenated word as one topic word, not its first part, and its parts at half its weight", () => {
		expect(readPrompt("the back-end rewrite").terms.map((t) => [t.stem, t.weight])).toEqual([
			["backend", 1],
			["rewrit", 1],
			["end", 0.5],
		]);
		expect(readPrompt("the follow-up emails").compounds).toEqual([{ key: "followup", parts: ["follow", "up"] }]);
	});

	it("finds the talk about its parts when the hyphenated word itself is never said", () => {
		const talk = transcriptOf([
			["A", "We spent the morning on the new logo and the colours for the landing page."],
			["B", "Okay."],
			["A", "The designers want a darker blue, and the marketing team wants the old font back."],
			["B", "Right."],
			["A", "Then the acoustic features: we mark the phonetic level by hand, and the acoustic cues by script."],
			["B", "Really?"],
			["A", "Yes, the phonetic labels line up with the acoustic ones, so the two agree now."],
			["A", "After lunch we planned the team trip to the coast and booked the hotel by the harbour."],
			["B", "Sure."],
			["A", "The hotel is close to the beach, so nobody needs a car, and the train is cheap."],
		]);
		const outcome = rankOffline(talk, {
			...config,
			clipDurationMin: 5,
			clipDurationMax: 20,
			customPrompt: "How do they label the acoustic-phonetic features?",
		});
		expectMatched(outcome.note);
		expect(outcome.clips[0]!.transcript).toMatch(/phonetic/);
	});
});

describe("a match needs the prompt's topic, not one shared common word", () => {
	it("answers 'the CEO's resignation and the stock price in March' with no clips and says why", () => {
		const outcome = rankOffline(garden, {
			...config,
			customPrompt: "the CEO's resignation and the stock price in March",
		});
		expect(outcome.clips).toEqual([]);
		expect(outcome.note).toMatch(/only "march"/);
	});

	it("still answers a prompt whose one specific word is said", () => {
		const outcome = rankOffline(garden, { ...config, customPrompt: "why the fig tree was wrapped in a coat" });
		expect(outcome.clips[0]!.transcript).toMatch(/fig tree/);
	});
});

describe("questions without a question mark (the local engine writes none)", () => {
	it("are read by their shape", () => {
		const plain = transcriptOf(
			[
				["A", "do you think we should plant the beans this week"],
				["B", "when i was a kid we planted them in may"],
				["A", "why does the soil stay so wet by the fence"],
				["B", "what we did last year was add sand"],
			],
			{ plain: true },
		);
		expect(unitsOf(plain).map((u) => u.question)).toEqual([true, false, true, false]);
	});

	it("never end a clip", () => {
		const { clips } = rankOffline(DEMO_TALK, { ...config, clipDurationMin: 10, clipDurationMax: 30 });
		for (const clip of clips) expect(clip.transcript).not.toMatch(/why does this work so well for so many people$/);
	});
});
