import { describe, expect, it } from "vitest";
import { chapterSpans, keepsYouTubeRules, showNotesOf, timestampOf, TOO_SHORT_NOTE } from "@clipforge/domain";
import { chapterUnitsOf } from "@clipforge/moments/chapters/offline/chapter-units";
import { chaptersOffline } from "@clipforge/moments/chapters/offline/chapters-offline";
import { describeChapters, summaryOf } from "@clipforge/moments/chapters/offline/describe";
import { markerStrength, topicCueStrength } from "@clipforge/moments/chapters/offline/discourse-markers";
import { transcriptOf } from "../helpers/talk";
import { threeTopicTalk } from "../helpers/three-topics";

describe("offline chapters of a whole video", () => {
	const { transcript, topicStarts } = threeTopicTalk();

	it("finds the three topics of a generated talk, starting within a sentence of where each begins", () => {
		const result = chaptersOffline(transcript);
		expect(result.note).toBeNull();
		expect(result.chapters).toHaveLength(3);
		expect(result.chapters[0]!.start).toBe(0);
		expect(Math.abs(result.chapters[1]!.start - topicStarts[1])).toBeLessThan(5);
		expect(Math.abs(result.chapters[2]!.start - topicStarts[2])).toBeLessThan(5);
		expect(keepsYouTubeRules(result.chapters)).toBe(true);
		expect(result.chapters.at(-1)!.end).toBe(Math.round(transcript.duration * 100) / 100);
	});

	it("titles each chapter from its own salient words and summarises it with one of its sentences", () => {
		const [garden, money, sky] = chaptersOffline(transcript).chapters;
		expect(garden!.title).toMatch(/tomato|compost|soil|seedling|garden|watering|mulch|beds|roots/i);
		expect(money!.title).toMatch(/budget|savings|mortgage|interest|loan|pension|spending|bank|salary|debt/i);
		expect(sky!.title).toMatch(/telescope|planet|galaxy|orbit|star|jupiter|moon|eyepiece|sky|comet/i);
		expect(new Set([garden!.title, money!.title, sky!.title]).size).toBe(3);
		for (const chapter of [garden!, money!, sky!]) {
			expect(chapter.title.length).toBeLessThanOrEqual(60);
			expect(chapter.summary.length).toBeGreaterThan(20);
			const words = chapter.summary.replace(/[.…]$/, "").split(" ").slice(0, 4).join(" ");
			expect(transcript.text).toContain(words);
		}
		expect(sky!.summary).toMatch(/telescope|planets|galaxy|orbit|stars|Jupiter|moons|eyepiece|night sky|comet/);
	});

	it("titles a chapter by the things it discusses, never a number, a day or a word said as an adjective or a verb", () => {
		const said = (lines: string[]) =>
			chapterUnitsOf(transcriptOf(lines.map((line) => ["A", line] as [string, string])));
		const chapters = [
			said([
				"Seven, seven, eight, zero. Seven eight eighty, zero seven.",
				"On Tuesday the enormous tomato plants were enormous again, seven of them.",
				"The tomato plants need compost, and seven enormous bags of compost arrived on Tuesday.",
				"Enormous tomato plants, seven feet tall, and the compost heap is enormous too.",
			]),
			said([
				"Okay, so the budget for the Mustard server is the thing we keep defining.",
				"Defining the budget again: the Mustard server budget is defining everything.",
				"We keep defining it, but the Mustard server needs a budget by Tuesday.",
			]),
			said([
				"And then the telescope on the roof showed Jupiter and four moons.",
				"The telescope needs a new eyepiece before we look at Jupiter again.",
				"So Jupiter and the telescope, that is the whole plan for the night sky.",
			]),
		];
		const texts = describeChapters(chapters);
		expect(texts[0]!.title).toMatch(/tomato|compost/i);
		for (const text of texts)
			expect(text.title).not.toMatch(/\b(seven|eight|eighty|zero|tuesday|enormous|defining)\b/i);
		expect(texts[1]!.title).toMatch(/budget|Mustard|server/);
		// Inside the video's summary a name keeps its capital and a quoted sentence skips its "And then".
		const summary = summaryOf(texts, chapters);
		expect(summary).toMatch(/^This video covers [a-z]/);
		expect(texts[2]!.summary).not.toMatch(/^(And|So)\b/);
	});

	it("summarises the whole video by naming its topics in order", () => {
		const result = chaptersOffline(transcript);
		expect(result.summary).toMatch(/^This video covers /);
		const at = result.chapters.map((c) => result.summary.toLowerCase().indexOf(c.title.toLowerCase()));
		expect(at.every((i) => i >= 0)).toBe(true);
		expect([...at].sort((a, b) => a - b)).toEqual(at);
	});

	it("says a video is too short for chapters, with none, when three chapters of 10 s do not fit", () => {
		const short = transcriptOf([
			["A", "Welcome to the show. Today we have a quick tip about the garden and the soil."],
		]);
		expect(short.duration).toBeLessThan(30);
		const result = chaptersOffline(short);
		expect(result.chapters).toEqual([]);
		expect(result.note).toBe(TOO_SHORT_NOTE);
		expect(result.summary.length).toBeGreaterThan(0);
	});

	it("keeps YouTube's rules whatever the starts: first at 0:00, ≥ 3 chapters, each ≥ 10 s", () => {
		expect(chapterSpans([4, 12, 30, 36, 55], 60)).toEqual([
			{ start: 0, end: 12 },
			{ start: 12, end: 30 },
			{ start: 30, end: 60 },
		]);
		expect(chapterSpans([20], 60)).toBeNull();
		expect(chapterSpans([10, 20], 29)).toBeNull();
		expect(
			keepsYouTubeRules([
				{ start: 0, end: 10 },
				{ start: 10, end: 15 },
				{ start: 15, end: 40 },
			]),
		).toBe(false);
	});

	it("writes show notes: the summary, then MM:SS lines, with hours past an hour", () => {
		const chapters = [
			{ start: 0, end: 65, title: "Intro", summary: "" },
			{ start: 65, end: 600, title: "Soil", summary: "" },
			{ start: 600, end: 900, title: "Budget", summary: "" },
		];
		expect(showNotesOf({ summary: "A talk.", chapters })).toBe("A talk.\n\n00:00 Intro\n01:05 Soil\n10:00 Budget");
		const long = [...chapters.slice(0, 2), { start: 600, end: 3725, title: "Budget", summary: "" }];
		expect(showNotesOf({ summary: "A talk.", chapters: long })).toBe(
			"A talk.\n\n0:00:00 Intro\n0:01:05 Soil\n0:10:00 Budget",
		);
		expect(timestampOf(3725.9, true)).toBe("1:02:05");
	});

	it("reads discourse markers that open a new topic", () => {
		expect(markerStrength("Okay, moving on, let's talk about money.")).toBe(1);
		expect(markerStrength("Next, the budget.")).toBe(1);
		expect(markerStrength("So the soil was dry.")).toBeGreaterThan(0);
		expect(markerStrength("The soil was dry.")).toBe(0);
	});

	it("reads the phrases that hand over to the next topic anywhere in a sentence", () => {
		expect(topicCueStrength("Right, we'll move on, then, to the bus timetables.")).toBe(1);
		expect(topicCueStrength("Right, we have some questions now about housing from Gareth.")).toBe(1);
		expect(topicCueStrength("How about you, Sunil?")).toBeGreaterThan(0.5);
		expect(topicCueStrength("Okay, thank you.")).toBeGreaterThan(0);
		expect(topicCueStrength("Okay, so the soil was dry.")).toBe(0);
	});
});
