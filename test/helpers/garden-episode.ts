/**
 * A test episode: two hosts of a neighbourhood podcast on ordinary business (the community
 * garden's schedule, tools, a newsletter), with hook-like lines that lead nowhere, and two moments
 * an editor would cut: a story with a setup, a turn and a payoff, and a confession.
 */
import type { Turn } from "./talk";

const ordinary: Turn[] = [
	["Ana", "Okay, we're recording. Welcome back to Plot Twist, the podcast from the Elm Street community garden."],
	["Joe", "Hi everyone."],
	["Ana", "So this week is mostly housekeeping, uh, we have the watering schedule and the tool shed to go over."],
	["Joe", "Yeah. The schedule is up on the board by the gate, and also in the group chat, I think."],
	[
		"Ana",
		"Right. If your name is on a Tuesday, you do the morning round, and, um, the evening round is the Thursday people.",
	],
	["Joe", "Mm-hmm."],
	["Ana", "And if you swap, just write it on the board, so nobody waters twice."],
	["Joe", "Did you know that most people water their tomatoes wrong?"],
	["Ana", "I mean, probably. Anyway, the hoses are back in the shed now."],
	["Joe", "Yeah, the shed. So the padlock code changed, it's the same as the gate now."],
	["Ana", "Okay. Which is easier, honestly, one code for both."],
	["Joe", "Right. And the wheelbarrow with the flat tire is still there, somebody said they would fix it."],
	["Ana", "I think that was Marcus. He said next weekend, maybe."],
	["Joe", "Okay. Yeah."],
	["Ana", "Then the newsletter. We're sending it out on the first of the month, like usual."],
	["Joe", "This is the craziest thing you will hear all week."],
	["Ana", "Is it?"],
	["Joe", "No, it's just that the newsletter has a new font. That's it."],
	["Ana", "Okay. Good. So if you have photos for the newsletter, send them to me by the twenty-fifth."],
	["Joe", "Yeah, and small files please, the last ones were huge."],
	["Ana", "Mm-hmm. And then the compost. The left bin is full, so use the right one for now."],
	["Joe", "Right bin, got it. And no citrus peels, I saw some in there again."],
	["Ana", "Yeah, no citrus. Um, what else. The seed swap is on the calendar for March."],
	["Joe", "Okay, March. Same place as last year?"],
	["Ana", "Same place, the library meeting room, it's booked from ten to two."],
	["Joe", "Okay, cool. Should we talk about the fence?"],
	["Ana", "We can, there's not much to say yet, the quote came in but the board hasn't looked at it."],
	["Joe", "Right. So, next month then."],
	["Ana", "Next month. Okay, and the raised beds by the path need new soil, we ordered two cubic yards."],
	["Joe", "Two yards, okay. When does that come?"],
	["Ana", "The fourteenth, in the morning, so we need a couple of people with shovels."],
	["Joe", "I can do that. I'll put it in the group chat."],
];

/** A story: setup, turn, payoff. */
export const STORY: Turn[] = [
	["Joe", "So, my grandmother kept a fig tree in a bucket on her balcony in Lisbon for thirty years."],
	[
		"Joe",
		"Every winter she wrapped it in an old wool coat, my grandfather's coat, and every summer it gave her maybe six figs.",
	],
	["Ana", "Six?"],
	[
		"Joe",
		"Six. She counted them. When she moved to the care home in 2015, she gave the tree to her neighbour, a young guy named Rui, and she made him promise to wrap it in the coat.",
	],
	[
		"Joe",
		"Last spring I went back to Lisbon and knocked on his door, just to see. And there it was, taller than me, planted in the courtyard. And Rui handed me a jar of fig jam and said, she still gets a jar every September. To this day she thinks it's from her tree in the bucket.",
	],
];

/** A confession with a reveal at its end. */
export const CONFESSION: Turn[] = [
	["Ana", "Okay, I have to confess something about the pumpkin contest last October."],
	[
		"Ana",
		"Everyone thought my pumpkin won because of the compost I made, and I let everyone believe that. I even gave a little speech about worm castings.",
	],
	["Joe", "I remember the speech."],
	[
		"Ana",
		"The truth is my dad drove it up from his farm in Vermont the night before, in the back of his truck, and I just set it in my bed at six in the morning. I have never grown a pumpkin bigger than a softball in my life, and I still have the blue ribbon on my fridge.",
	],
];

const closing: Turn[] = [
	["Joe", "Okay, that's about it for the announcements."],
	["Ana", "Yeah. Remember, the schedule is by the gate, and the shed code is the gate code."],
	["Joe", "Mm-hmm."],
	["Ana", "Here's the secret to a great garden."],
	["Joe", "What?"],
	["Ana", "Just show up on your watering day. That's all. Okay, thanks for listening, see you next week."],
];

export const GARDEN_EPISODE: Turn[] = [
	...ordinary.slice(0, 14),
	...STORY,
	...ordinary.slice(14),
	...CONFESSION,
	...closing,
];
export const STORY_TURNS: [number, number] = [14, 14 + STORY.length - 1];
export const CONFESSION_TURNS: [number, number] = [
	ordinary.length + STORY.length,
	ordinary.length + STORY.length + CONFESSION.length - 1,
];
export const ORDINARY_ONLY: Turn[] = [...ordinary, ...closing];
