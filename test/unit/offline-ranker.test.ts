import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/worker/domain/video-config";
import { rankOffline } from "@clipforge/moments/ranking/offline/rank-offline";
import { readPrompt } from "@clipforge/moments/ranking/offline/prompt";
import { sentencesOf } from "@clipforge/moments/text";
import { keyPhrases } from "@clipforge/moments/ranking/offline/describe/phrases";
import { idfOf } from "@clipforge/moments/text/cohesion";
import { unitsOf } from "@clipforge/moments/text/units";
import { scoreOf } from "@clipforge/domain";
import { DEMO_TALK } from "../helpers/demo-talk";
import { CONFESSION_TURNS, GARDEN_EPISODE, ORDINARY_ONLY, STORY_TURNS } from "../helpers/garden-episode";
import { spanOfTurns, transcriptOf } from "../helpers/talk";

const config = { ...defaultConfig(), clipDurationMin: 15, clipDurationMax: 90 };
const iou = (a: { start: number; end: number }, b: { start: number; end: number }) =>
	Math.max(0, Math.min(a.end, b.end) - Math.max(a.start, b.start)) /
	(Math.max(a.end, b.end) - Math.min(a.start, b.start));

describe("the offline ranker picks moments a person would", () => {
	const episode = transcriptOf(GARDEN_EPISODE);

	it("puts the complete story first, from its setup to its payoff, over hook-like lines that lead nowhere", () => {
		const { clips } = rankOffline(episode, config);
		const story = spanOfTurns(episode, ...STORY_TURNS);
		expect(iou(clips[0]!, story)).toBeGreaterThan(0.8);
		// The whole story: its setup and its payoff (the lines just before it, which also name a person and say "he said", may lead in).
		// Its "So," left out: the clip opens on the story's first words.
		expect(clips[0]!.transcript).toMatch(/(^|\. )My grandmother kept a fig tree/);
		expect(clips[0]!.transcript).toMatch(/To this day she thinks it's from her tree in the bucket\.$/);
		// The distractors ("Did you know…", "craziest thing…") are not what the best clips open on.
		for (const clip of clips.slice(0, 2))
			expect(clip.transcript).not.toMatch(/^(Did you know|This is the craziest)/);
		expect(clips.some((c) => iou(c, spanOfTurns(episode, ...CONFESSION_TURNS)) > 0.4)).toBe(true);
	});

	it("says why, in words backed by the clip, with a headline that is not its first words", () => {
		const [best] = rankOffline(episode, config).clips;
		expect(best!.viralityReason).toMatch(/story/i);
		expect(best!.viralityReason).toMatch(/To this day/);
		expect(best!.hookTitle.length).toBeLessThanOrEqual(60);
		expect(best!.transcript.toLowerCase().startsWith(best!.hookTitle.toLowerCase())).toBe(false);
		expect(best!.description).toMatch(/#\w+/);
		expect(best!.emotions.length).toBeGreaterThan(0);
		expect(best!.scoreBreakdown.story).toBeGreaterThan(50);
		expect(best!.scoreBreakdown.relevance).toBeNull();
		expect(best!.scoreBreakdown.energy).toBeNull();
	});

	it("scores on an absolute scale: the best clip of dull talk stays low, a real story scores high", () => {
		const dull = rankOffline(transcriptOf(ORDINARY_ONLY), config).clips;
		const lively = rankOffline(episode, config).clips;
		expect(Math.max(...dull.map((c) => c.score))).toBeLessThan(60);
		expect(lively[0]!.score).toBeGreaterThanOrEqual(80);
		// Spread, not bunched at the top.
		expect(Math.max(...lively.map((c) => c.score)) - Math.min(...lively.map((c) => c.score))).toBeGreaterThan(20);
	});

	it("returns 4 to 9 clips when the source has room, non-overlapping, best first", () => {
		const { clips } = rankOffline(episode, { ...config, clipDurationMax: 40 });
		expect(clips.length).toBeGreaterThanOrEqual(4);
		expect(clips.length).toBeLessThanOrEqual(9);
		const byTime = [...clips].sort((a, b) => a.start - b.start);
		byTime.forEach((c, i) => i > 0 && expect(c.start).toBeGreaterThanOrEqual(byTime[i - 1]!.end));
	});

	it("starts clips on a sentence, or after its opening 'So,' (never on a listener's 'Yeah.'), and never ends on a question left hanging", () => {
		const sentences = sentencesOf(episode);
		for (const clip of rankOffline(episode, { ...config, clipDurationMax: 30 }).clips) {
			const first = sentences.find((s) => s.end > clip.start)!;
			const leftOut = first.words.filter((w) => w.start < clip.start - 0.01).map((w) => w.word);
			expect(leftOut.join(" ")).toMatch(/^((and|but|so|then|um|uh),? ?)*$/i);
			expect(first.words.find((w) => w.start >= clip.start - 0.01)!.start - clip.start).toBeLessThanOrEqual(0.21);
			expect(first.text).not.toMatch(/^(Yeah|Mm-hmm|Right|Okay)\.$/);
			const last = [...sentences].reverse().find((s) => s.end <= clip.end + 0.01)!;
			expect(last.text.endsWith("?")).toBe(false);
		}
	});

	it("reads unpunctuated transcripts (the local engine's) the same way", () => {
		const plain = transcriptOf(GARDEN_EPISODE, { plain: true });
		const { clips } = rankOffline(plain, config);
		expect(iou(clips[0]!, spanOfTurns(plain, ...STORY_TURNS))).toBeGreaterThan(0.6);
	});

	it("is deterministic", () => {
		expect(rankOffline(episode, config)).toEqual(rankOffline(episode, config));
	});
});

describe("the demo's talk, as the local engine hears it", () => {
	const demo = { ...config, clipDurationMin: 10, clipDurationMax: 30 };

	it("puts the bakery story first, opening on its first sentence (not the housekeeping before it) and titled by it", () => {
		const [best] = rankOffline(DEMO_TALK, demo).clips;
		expect(best!.transcript).toMatch(/^ten years ago i work nights at a bakery in chicago/);
		expect(best!.transcript).toMatch(/the worst sleeper/);
		expect(best!.transcript).not.toMatch(/newsletter|anyway/);
		expect(best!.title).toMatch(/bakery|chicago|walter/i);
		// The engine writes "chicago"; a title writes the city as a person does.
		expect(best!.title).not.toMatch(/\b(chicago|walter)\b/);
		expect(best!.hookTitle).not.toMatch(/^(What happened with|Why .* still matters)/);
		expect(best!.transcript.toLowerCase().startsWith(best!.hookTitle.toLowerCase().replace(/[“”]/g, ""))).toBe(
			false,
		);
	});

	it('quotes its hook, description and reason as a person writes them: a capital first letter and "I", never the engine\'s lower case', () => {
		const [best] = rankOffline(DEMO_TALK, demo).clips;
		expect(best!.hooks.statement).toMatch(/^Ten years ago I work nights at a bakery in Chicago/);
		expect(best!.description).toContain("Ten years ago I work nights at a bakery in Chicago");
		// Its transcript has the stops the engine leaves out, where a sentence ended at a pause.
		expect(best!.transcript).toMatch(/^ten years ago i work nights at a bakery in chicago\. Every morning at five/);
		// Hashtags name one thing each, as a creator tags a post, never a phrase glued whole.
		const tags = best!.description.match(/#\S+/g) ?? [];
		expect(tags).toEqual(expect.arrayContaining(["#chicago", "#bakery"]));
		expect(tags.length).toBeLessThanOrEqual(3);
		for (const clip of rankOffline(DEMO_TALK, demo).clips)
			for (const tag of clip.description.match(/#\S+/g) ?? []) expect(tag).toMatch(/^#[\p{L}\p{N}]{3,16}$/u);
		for (const clip of rankOffline(DEMO_TALK, demo).clips) {
			for (const text of [clip.hooks.statement, clip.hooks.question, clip.description]) {
				if (text) expect(text, text).not.toMatch(/^[a-z]|\bi\b|\bi'(m|ve|ll|d)\b/);
			}
		}
		// The reason quotes the line a clip ends on ("it ends on \"I still have that card…\"").
		const quotes = [20, 45].flatMap((max) =>
			rankOffline(DEMO_TALK, { ...demo, clipDurationMax: max }).clips.flatMap(
				(c) => /ends on "([^"]+)"/.exec(c.viralityReason)?.[1] ?? [],
			),
		);
		expect(quotes.length).toBeGreaterThan(0);
		for (const quote of quotes) expect(quote, quote).not.toMatch(/^[a-z]|\bi\b|\bi'(m|ve|ll|d)\b/);
	});

	it("scores the story above the housekeeping, and its score is what its breakdown says", () => {
		const { clips } = rankOffline(DEMO_TALK, demo);
		for (const clip of clips) expect(clip.score).toBe(scoreOf(clip.scoreBreakdown));
		expect(clips[0]!.scoreBreakdown.story).toBeGreaterThanOrEqual(80);
		expect(clips.every((c, i) => i === 0 || c.score <= clips[i - 1]!.score)).toBe(true);
	});
});

describe("what a clip is called", () => {
	it("never names a clip by a verb the tagger read as a noun in lower-case text ('the morning sets your clock')", () => {
		const { clips } = rankOffline(DEMO_TALK, { ...config, clipDurationMin: 10, clipDurationMax: 30 });
		const morning = clips.find((c) => /light in the morning sets/i.test(c.transcript));
		expect(morning).toBeDefined();
		expect(morning!.title).not.toMatch(/\bsets\b/i);
	});

	it("gives each clip of a video its own title, from what happens in it, never a template around a topic word", () => {
		for (const max of [30, 40, 90]) {
			const { clips } = rankOffline(transcriptOf(GARDEN_EPISODE), { ...config, clipDurationMax: max });
			const titles = clips.map((c) => c.title.toLowerCase());
			expect(new Set(titles).size).toBe(titles.length);
			for (const clip of clips)
				expect(`${clip.title} | ${clip.hookTitle}`).not.toMatch(
					/What happened with|still matters|, explained$|The truth about|The real answer on/,
				);
		}
	});
});

/**
 * A two-part story between a show's housekeeping (a welcome back, the newsletter, the questions), each
 * part answered by the listener: the shape the title, hashtag and quote tests read. `plain` is the
 * local engine's style (lower case, no punctuation).
 */
const storyBetweenChatter = (story: string, then: string, options: { plain?: boolean } = {}) =>
	transcriptOf(
		[
			["A", "Okay, we are back, thanks for sticking around through the break."],
			["B", "Yeah, good to be back."],
			["A", "So before the questions, one quick thing about the newsletter and the schedule for next week."],
			["B", "Sure."],
			["A", story],
			["B", "No."],
			["A", then],
			["B", "That's amazing."],
			["A", "Anyway, the questions. The first one is about the schedule and the newsletter again."],
			["B", "Okay, let's see."],
		],
		options,
	);

/** The clips of a story between chatter, 10-40 s each, as the title, hashtag and quote tests read them. */
const clipsOfStory = (story: string, then: string, options: { plain?: boolean } = {}) =>
	rankOffline(storyBetweenChatter(story, then, options), { ...config, clipDurationMin: 10, clipDurationMax: 40 })
		.clips;

describe("where a story's clip starts", () => {
	it("opens on the story's first line, not on the greetings and housekeeping before it", () => {
		const [best] = clipsOfStory(
			"Last week I reset the whole board, yeah. Every single piece, back to the start.",
			"And my daughter looked at me and said, Dad, we were winning. She was eight, and she was right.",
		);
		expect(best!.transcript).toMatch(/^Last week I reset the whole board/);
	});
});

describe("titles from what happens", () => {
	it("names the event of the story's opening, a possessive included, not a pair of its phrases", () => {
		const [best] = clipsOfStory(
			"Right. So last winter I locked my keys inside a rental car in Reno. Engine running, heater on, my phone on the seat. It was nine degrees out.",
			"A tow driver named Luis showed up forty minutes later, opened it with a coat hanger in six seconds, and charged me eighty dollars. Then he handed me a hot chocolate and said, welcome to Nevada.",
		);
		expect(best!.title).toBe("Locking my keys inside a rental car in Reno");
	});
});

describe("what a Whisper story is called", () => {
	it("reads through a title's stop, tags the name without its possessive and quotes a quote inside the hook", () => {
		const clips = clipsOfStory(
			"When I was eight I kicked a football through Mr. Okafor's kitchen window. Glass all over the sink. And I hid in the garage, and my cousin took the blame for a week.",
			'Fifteen years later Mr. Okafor came to my graduation with a card. It read "I always knew it was you." It hangs over my desk now, and we both laughed until we cried.',
		);
		const [best] = clips;
		expect(best!.title).toMatch(/^Kicking a football through Mr\.? Okafor's kitchen window$/);
		expect(best!.description).not.toMatch(/#okafors\b/);
		for (const clip of clips) expect((clip.hookTitle.match(/"/g) ?? []).length % 2).toBe(0);
	});
});

describe("a clip where nothing happens in its first sentences", () => {
	it("is titled by the thing they name and the clause that says which, not by that clause's verb", () => {
		const [best] = clipsOfStory(
			"So the big one this week is the phone update. The system update that went out Thursday. Have you installed it?",
			"Not yet. I heard the county hospital in Tacoma lost every calendar for a whole day, and nobody knew where to be.",
		);
		expect(best!.title).toBe("The system update that went out Thursday");
	});

	it("reads what someone was doing as the event ('I was counting owls'), never a passive or what a thing is", () => {
		const story = (opening: string) =>
			clipsOfStory(
				`${opening} And one night a park ranger drives up in the fog outside Flagstaff, headlights on.`,
				"She rolls the window down and asks, ma'am, why are you standing in the mud. And I say, counting owls. And she just shrugs and drives off.",
			)[0]!.title;
		expect(story("My third summer of college I was counting owls for my research project.")).toBe(
			"Counting owls for my research project",
		);
		expect(story("My third summer of college was named after an owl in my research project.")).not.toMatch(
			/^Naming/,
		);
		expect(story("My third summer of college my research project is training wheels for an owl.")).not.toMatch(
			/^Training/,
		);
	});

	it("is titled by when and where it opens ('My first month at the hotel front desk, …')", () => {
		const [best] = clipsOfStory(
			"My first month at the hotel front desk, I'm on the night shift, and they hand you this binder. You are not allowed to go off the binder.",
			"And then this man, he tells me his whole plan to propose on the roof, and I let him up there. They still send me a postcard every June.",
		);
		expect(best!.title).toBe("My first month at the hotel front desk");
	});

	it("is titled by the claim an opinion argues with, infinitive and all", () => {
		const [best] = clipsOfStory(
			"I don't buy the idea that kids today don't like to read. Every generation says it about the one after it.",
			"There are letters from the eighteen-hundreds grumbling about novels in the very same way. What changed is the screens.",
		);
		expect(best!.title).toBe("The idea that kids today don't like to read");
	});

	it("never titles a clause that says which thing is meant, or what someone lets happen, as the event", () => {
		const title = (opening: string) =>
			clipsOfStory(
				opening,
				"In 1994 a student in this class left a note in my mailbox. It said the lectures were the reason she became a historian. I kept it in my desk for thirty years.",
				{ plain: true },
			)[0]!.title;
		// "everybody makes" tells which mistake, and "let me get" is a plan: the story's event is the title.
		expect(title("Wait so that's the mistake everybody makes on the homework. This is my last lecture here.")).toBe(
			"Leaving a note in my mailbox",
		);
		const [streamed] = clipsOfStory(
			"Okay we have two minutes until the race let me get some water. Chat I have to confess something about the ledge trick in the crow's nest level.",
			"I said it saves two seconds. I made that up. I was tired and I did it once by accident and I never did it again.",
			{ plain: true },
		);
		expect(streamed!.title).not.toMatch(/water/i);
	});
});

describe("a clip with no event in its first sentences", () => {
	it("is titled by the short claim it opens on, subject and all, never a pair of its phrases", () => {
		const [best] = clipsOfStory(
			"Easy mode isn't ruining games. People act like if someone else gets an easier setting, it cheapens their win.",
			"It doesn't. Your victory is exactly as hard as it was yesterday. What an easy mode does is let a dad with forty minutes finish the story.",
		);
		expect(best!.title).toBe("Easy mode isn't ruining games");
	});

	it("reads a noun the tagger takes for an adjective ('I went to a psychic once.')", () => {
		const [best] = clipsOfStory(
			"I went to a psychic once. Fifteen-dollar sign in the window, back of a vape shop in Tampa, on a dare.",
			"She takes my hand, closes her eyes, and says, I see a great loss. And I said, lady, I just lost fifteen dollars. She laughed so hard she gave it back.",
		);
		expect(best!.title).toBe("Going to a psychic");
	});

	it("is what started, not the starting ('I started getting texts …')", () => {
		const [best] = clipsOfStory(
			"Last spring I started getting texts meant for someone named Linda. Photos of casseroles, mostly.",
			"So one night I wrote back, Linda moved to Alaska. And her whole family sent me a card at Christmas. I still have it on my fridge.",
		);
		expect(best!.title).toBe("Getting texts meant for someone named Linda");
	});

	it("reads an event through 'once' and 'made it to' ('I once got stuck …', 'I made it to …')", () => {
		const title = (story: string) =>
			clipsOfStory(
				story,
				"Eleven people and me, and the thing just stops between nine and ten. Then the trumpet player starts the wedding march and we all sing.",
			)[0]!.title;
		expect(title("I once got stuck in an elevator with a mariachi band. Hotel in San Antonio.")).toBe(
			"Getting stuck in an elevator with a mariachi band",
		);
		expect(title("Fourth grade, I made it to the county spelling bee. Round six, two hundred people.")).toBe(
			"Making it to the county spelling bee",
		);
	});
});

describe("a title as said", () => {
	it("quotes a line without its full stop when nothing else names the clip", () => {
		const clips = clipsOfStory(
			"Well, that is what he is seeing as one of the things they could do. It is what it is.",
			"I think so too, and that is fine by me, it really is. We could do that.",
		);
		expect(clips.length).toBeGreaterThan(0);
		for (const clip of clips) expect(clip.title).not.toMatch(/\.$/);
	});

	it("does not end on an aside to the listener ('…, yeah')", () => {
		const clips = clipsOfStory(
			"Well, that is what he is seeing as one of the things they could do, yeah. It is what it is, right.",
			"I think so too, and that is fine by me, it really is, okay. We could do that, yeah.",
		);
		expect(clips.length).toBeGreaterThan(0);
		for (const clip of clips) expect(clip.title).not.toMatch(/\b(yeah|right|okay)$/i);
	});

	it("says a word said twice in a row once, and leaves out hesitations", () => {
		const [best] = clipsOfStory(
			"Last summer I finally got the the big tent up on a ridge in Utah. Took us four hours and two arguments.",
			"Then at midnight the wind took it off the ridge like a kite, with my sleeping bag still inside. We slept in the car and laughed all night.",
			{ plain: true },
		);
		expect(best!.title).toBe("Getting the big tent up on a ridge");
		const [hesitant] = clipsOfStory(
			"Last summer I finally got the uh big tent up on a ridge in Utah. Took us four hours and two arguments.",
			"Then at midnight the wind took it off the ridge like a kite, with my sleeping bag still inside. We slept in the car and laughed all night.",
			{ plain: true },
		);
		expect(hesitant!.title).toBe("Getting the big tent up on a ridge");
	});
});

describe("meeting talk cut off mid-clause", () => {
	const numbers = "Ten, sixteen, three, two, nine.";
	const cutOff = "Honestly I really love the. It is amazing, the best thing we have, and.";

	it("never gives a hook that stops on an article or a conjunction", () => {
		const clips = clipsOfStory(
			`${numbers} ${cutOff}`,
			"Yeah it is wonderful and I am so happy with the. We picked a yellow rubber case for the remote. It is great, really great but.",
		);
		expect(clips.length).toBeGreaterThan(0);
		for (const clip of clips) expect(clip.hookTitle).not.toMatch(/\b(the|a|an|and|or|but)”$/i);
	});

	it("is not titled by numbers read out", () => {
		const clips = clipsOfStory(
			`${numbers} ${cutOff}`,
			`Yeah it is wonderful and I am so happy with the. It is great, really great but. ${numbers}`,
		);
		expect(clips.length).toBeGreaterThan(0);
		for (const clip of clips) expect(clip.title).not.toMatch(/^(ten|sixteen|three|two|nine)\b/i);
	});
});

describe("a title's words", () => {
	it("spells the event of a past tense the lemmatiser does not know ('I texted' → 'Texting'), and 'Resetting'", () => {
		const [best] = clipsOfStory(
			"Last spring I texted my friend Paul a photo of a moose in our driveway in Anchorage. He did not believe me.",
			"So he drove four hours to see it, and the moose was still there, eating our tulips. He named it Gerald.",
		);
		expect(best!.title).toBe("Texting my friend Paul a photo of a moose");
		const [reset] = clipsOfStory(
			"Last week I reset the whole board, yeah. Every single piece, back to the start.",
			"And my daughter looked at me and said, Dad, we were winning. She was eight, and she was right.",
		);
		expect(reset!.title).toBe("Resetting the whole board");
	});

	it("never names a thing by 'I'm' or 'everything's', which the tagger reads as names", () => {
		const units = unitsOf(
			transcriptOf([
				["A", "My first fighting game tournament I'm fourteen and everything's new. Columbus, Ohio."],
			]),
		);
		const phrases = keyPhrases(units, idfOf(units), 5);
		expect(phrases.length).toBeGreaterThan(0);
		for (const phrase of phrases) expect(phrase).not.toMatch(/\b(i'm|everything's)\b/i);
	});
});

describe("an event in talk written without stops", () => {
	it("gets a hook of its own from the clause a long turn ends on, not the title again", () => {
		const [best] = clipsOfStory(
			"My grandmother got a new phone with voice typing this year. So she sends my cousin a message the morning of his wedding and it reads congratulations period love grandma hey phone stop harold put your pants on",
			"And my cousin loved it so much he read it out loud at the reception as his toast",
			{ plain: true },
		);
		expect(best!.title).toBe("Sending my cousin a message");
		// A whole clause of the clip, said in it, and not the title again.
		const hook = best!.hookTitle!.replace(/[“”]/g, "");
		expect(hook.toLowerCase()).not.toContain("sending my cousin");
		expect(hook.split(" ").length).toBeGreaterThanOrEqual(5);
		expect(best!.transcript.toLowerCase()).toContain(hook.toLowerCase());
	});

	it("does not end on a measure whose noun was cut off ('on a dare fifteen-dollar')", () => {
		const [best] = clipsOfStory(
			"I went to a psychic once on a dare fifteen-dollar sign in the window back of a vape shop in Tampa. She takes my hand and closes her eyes.",
			"And she goes very dramatic I see a great loss. And I said lady I just lost fifteen dollars. She laughed so hard she gave it back.",
			{ plain: true },
		);
		expect(best!.title).toBe("Going to a psychic once on a dare");
	});
});

describe("titles from unpunctuated speech", () => {
	// The local engine writes no stops, so where the event ends is read from the words alone.
	const bestTitle = (
		story: string,
		then = "the director finally called me on a tuesday night and said the part was mine and I cried in the parking lot of a grocery store",
	) => clipsOfStory(story, then, { plain: true })[0]!.title;

	it("stops at a word said again, an aside, or a noun phrase that starts the next thought", () => {
		expect(
			bestTitle(
				"ten years ago I auditioned for the same mattress commercial fourteen times fourteen and every single time they said no",
			),
		).toBe("Auditioning for the same mattress commercial fourteen times");
		expect(
			bestTitle("ten years ago I auditioned for the role of a pirate right and every single time they said no"),
		).toBe("Auditioning for the role of a pirate");
		expect(
			bestTitle(
				"ten years ago I auditioned for a pirate movie in Boston the director hated me and every single time they said no",
			),
		).toBe("Auditioning for a pirate movie in Boston");
		expect(
			bestTitle("ten years ago I upset the whole church choir in Boston and every single time they said no"),
		).toBe("Upsetting the whole church choir in Boston");
		expect(
			bestTitle("ten years ago my sister asked me to give a speech at her graduation in Boston and I said yes"),
		).toBe("Giving a speech at her graduation in Boston");
	});

	it("finds the event in a later clause when the first says nothing specific", () => {
		expect(
			bestTitle(
				"ten years ago I kept that old card on my desk and I walked my dog along the river every single morning because of a nurse named Greta",
				"honestly it was the best decision of my life and I would do it all again tomorrow if I could",
			),
		).toBe("Walking my dog along the river every single morning");
	});
});

describe("hashtags", () => {
	it("tag names and things, never a sentence's first word, an ordinal, a feeling or a name twice", () => {
		const [best] = clipsOfStory(
			"Nobody's mailbox was ever as full as mine. Last spring a parcel for Shadowblade1994 came to my flat in Lisbon every single Monday.",
			"Third week, I opened one. Biggest mistake. It was a live tarantula, and Shadowblade was my neighbour's nephew in Porto.",
		);
		const tags = best!.description.match(/#\S+/g) ?? [];
		expect(tags.length).toBeGreaterThan(0);
		for (const tag of tags) expect(tag).not.toMatch(/^#(nobodys|third|biggest|mistake|week|monday)$/);
		expect(tags.filter((tag) => tag.startsWith("#shadowblade")).length).toBeLessThanOrEqual(1);
	});
});

describe("clip lengths", () => {
	it("never returns a clip outside [min, max], even on one long unpunctuated run-on", () => {
		const runOn = transcriptOf(
			[
				[
					"A",
					`${"so we went down to the river and then we walked along it for a while and ".repeat(12)}that was the day`,
				],
			],
			{ plain: true },
		);
		for (const max of [20, 40]) {
			const { clips } = rankOffline(runOn, { ...config, clipDurationMin: 10, clipDurationMax: max });
			expect(clips.length).toBeGreaterThan(0);
			for (const c of clips) {
				expect(c.end - c.start).toBeLessThanOrEqual(max + 1e-6);
				expect(c.end - c.start).toBeGreaterThanOrEqual(10 - 1e-6);
			}
		}
	});

	it("holds for any range and time frame (property)", () => {
		const episode = transcriptOf(GARDEN_EPISODE);
		fc.assert(
			fc.property(
				fc.integer({ min: 5, max: 60 }),
				fc.integer({ min: 0, max: 60 }),
				fc.integer({ min: 0, max: 200 }),
				(min, extra, from) => {
					const max = min + extra;
					const { clips } = rankOffline(episode, {
						...config,
						clipDurationMin: min,
						clipDurationMax: max,
						timeframeStart: from,
						timeframeEnd: null,
					});
					for (const c of clips) {
						expect(c.end - c.start).toBeLessThanOrEqual(max + 1e-6);
						expect(c.start).toBeGreaterThanOrEqual(from - 1e-6);
						if (episode.duration - from > min + 5)
							expect(c.end - c.start).toBeGreaterThanOrEqual(min - 1e-6);
					}
				},
			),
			{ numRuns: 25 },
		);
	});

	it("gives one clip of all the speech when there is less speech than the minimum, none without speech", () => {
		const short = transcriptOf([["A", "Welcome back. Today is a short one."]]);
		const { clips } = rankOffline(short, config);
		expect(clips).toHaveLength(1);
		expect(clips[0]!.end - clips[0]!.start).toBeLessThan(15);
		expect(rankOffline({ language: "en", duration: 60, text: "", segments: [], words: [] }, config).clips).toEqual(
			[],
		);
	});

	it("split-clips covers the frame with consecutive numbered parts inside the range", () => {
		const episode = transcriptOf(GARDEN_EPISODE);
		const { clips: parts } = rankOffline(episode, {
			...config,
			clipType: "split-clips",
			clipDurationMin: 20,
			clipDurationMax: 45,
		});
		expect(parts.length).toBeGreaterThanOrEqual(6);
		parts.forEach((part, i) => {
			expect(part.title.startsWith(`Part ${i + 1}: `)).toBe(true);
			if (i > 0) expect(part.start).toBeGreaterThanOrEqual(parts[i - 1]!.end - 1e-6);
			expect(part.end - part.start).toBeLessThanOrEqual(45 + 1e-6);
		});
		const spoken = episode.words.length;
		expect(parts.reduce((n, p) => n + p.transcript.split(" ").length, 0)).toBe(spoken);
	});
});

describe("custom prompts lead", () => {
	const episode = transcriptOf(GARDEN_EPISODE);

	it("puts the passage about the prompt first and says what in it matches", () => {
		const { clips } = rankOffline(episode, { ...config, customPrompt: "the pumpkin contest" });
		expect(iou(clips[0]!, spanOfTurns(episode, ...CONFESSION_TURNS))).toBeGreaterThan(0.4);
		expect(clips[0]!.transcript).toMatch(/pumpkin contest/);
		expect(clips[0]!.viralityReason).toMatch(/Matches your prompt: it talks about pumpkin/);
		expect(clips[0]!.scoreBreakdown.relevance).toBeGreaterThan(60);
	});

	it("answers a question with the passage that holds the answer, ending after it", () => {
		const [first] = rankOffline(episode, { ...config, customPrompt: "When is the soil being delivered?" }).clips;
		expect(first!.transcript).toMatch(/need new soil/);
		expect(first!.transcript).toMatch(/The fourteenth/);
	});

	it("returns no clips, with the reason, when nothing in the video matches", () => {
		const outcome = rankOffline(episode, { ...config, customPrompt: "the quarterly earnings call" });
		expect(outcome.clips).toEqual([]);
		expect(outcome.note).toMatch(
			/Nothing in the video matches the prompt: none of "quarterly", "earnings", "call" is said/,
		);
	});

	it("applies instructions: a length limit and skipping the intro", () => {
		const short = rankOffline(episode, { ...config, customPrompt: "the fig tree, under 25 seconds" }).clips;
		expect(short.length).toBeGreaterThan(0);
		for (const c of short) expect(c.end - c.start).toBeLessThanOrEqual(25 + 1e-6);
		const noIntro = rankOffline(episode, {
			...config,
			customPrompt: "skip the intro, the watering schedule",
		}).clips;
		for (const c of noIntro) expect(c.start).toBeGreaterThan(20);
	});

	it("tells instructions from topics", () => {
		expect(readPrompt("only the funny moments about the dog")).toMatchObject({
			moods: ["funny"],
			terms: [{ word: "dog" }],
		});
		expect(readPrompt("clips about the budget under 30 seconds")).toMatchObject({
			maxSeconds: 30,
			terms: [{ word: "budget" }],
		});
		expect(readPrompt("skip the intro, just the decisions about hiring")).toMatchObject({ skipIntro: true });
		expect(readPrompt("the part where they argue about pricing")).toMatchObject({
			moods: ["heated"],
			terms: [{ word: "pricing" }],
		});
		// Who spoke is not what was said: the question's subject weighs little, a "when discussing" clause only locates.
		const read = readPrompt("What did the designer think of the colour when discussing the prototype?");
		expect(read.terms.find((t) => t.word === "designer")!.weight).toBeLessThan(0.5);
		expect(read.terms.find((t) => t.word === "colour")!.weight).toBe(1);
		expect(read.terms.find((t) => t.word === "prototype")).toMatchObject({ context: true });
	});
});

describe("audio signals", () => {
	it("lift the stretch with more vocal energy and report it", () => {
		const episode = transcriptOf(ORDINARY_ONLY);
		const quiet = rankOffline(episode, config).clips;
		const loudness = Array.from({ length: Math.ceil(episode.duration * 2) }, (_, i) =>
			i >= 240 && i < 300 ? -12 : -30 + (i % 3),
		);
		const loud = rankOffline(episode, config, { intervalSeconds: 0.5, loudness }).clips;
		const top = loud.find((c) => c.start < 150 && c.end > 120);
		expect(top).toBeDefined();
		expect(top!.scoreBreakdown.energy).toBeGreaterThan(60);
		expect(loud.indexOf(top!)).toBeLessThan(
			quiet.findIndex((c) => c.start < 150 && c.end > 120) === -1
				? 99
				: quiet.findIndex((c) => c.start < 150 && c.end > 120) + 1,
		);
	});
});
