/**
 * A test meeting with no story in it: a design team's opening business, small talk while the
 * laptop is set up, a discussion that weighs options with reasons (what people ask about
 * afterwards), and the closing business. What carries content is the discussion.
 */
import type { Turn } from "./talk";

const opening: Turn[] = [
	["Laura", "Okay, good morning everyone, welcome to the second meeting of the remote control team."],
	["Dave", "Morning."],
	[
		"Laura",
		"We've received apologies for absence from Craig, he's stuck on the train, so it's just the three of us.",
	],
	["Andrew", "Okay."],
	["Laura", "Are there any declarations of interest? No? Okay, thank you."],
	["Laura", "The agenda is on the first slide, and the minutes of the last meeting went out by email on Monday."],
	["Dave", "Yep, got them."],
];

const smallTalk: Turn[] = [
	["Andrew", "Um, sorry, is the projector on? I can't see the, uh, the slide."],
	["Laura", "Hang on. It was working yesterday. Uh, let me, um, press the button again."],
	["Dave", "Did you get the coffee from downstairs? Mine was cold again."],
	["Andrew", "Yeah, yeah. Cold. Uh, Steve said the machine was broken on Friday."],
	["Laura", "Oh, right. Okay. Is it, um, is it on now?"],
	["Andrew", "Yeah. Yeah, it's on."],
	["Dave", "Mm-hmm. Okay."],
	["Laura", "Right, sorry, my mouse was, uh, was somewhere else. Okay."],
	["Dave", "No worries. Uh, did you have a good weekend?"],
	["Andrew", "Yeah, uh, we went to Edinburgh on Saturday, um, saw my sister. It rained."],
	["Dave", "Oh, nice. It always rains."],
	["Laura", "Yeah. Okay."],
];

const discussion: Turn[] = [
	[
		"Laura",
		"So the main decision today is the buttons, because the budget only allows twelve fifty per unit, and every extra button adds to the production cost.",
	],
	[
		"Dave",
		"I think fewer buttons is the better option, because most users only ever press five of them, and a simple remote is easier to learn and cheaper to build.",
	],
	[
		"Andrew",
		"The problem is that our market research says people want the advanced functions, so if we drop them completely we lose the younger buyers, which is the important group for us.",
	],
	[
		"Laura",
		"So one idea is to keep the main buttons on the front and put the advanced functions behind a sliding cover, which keeps the design simple without losing anything.",
	],
	[
		"Dave",
		"That could work, but a sliding cover is a moving part, and moving parts are expensive and they break, so the cost goes up again and the quality goes down.",
	],
	[
		"Andrew",
		"Then the better option might be a menu on the screen for the advanced functions, because software costs nothing per unit, and the remote itself stays small and cheap.",
	],
	[
		"Laura",
		"I agree, a menu is cheaper than a cover, and it is easier to change later, so let's decide on the main buttons plus a screen menu, and Dave can check the cost of that design.",
	],
	[
		"Dave",
		"Agreed. I'll work out the production cost of the buttons and the chip for the menu before the next meeting.",
	],
];

const closing: Turn[] = [
	["Laura", "Okay, that's it for today. Thank you all for coming."],
	["Andrew", "Thanks."],
	["Laura", "The next meeting is on Thursday at ten, and don't forget to fill out the questionnaire."],
	["Dave", "Bye."],
];

export const DESIGN_MEETING: Turn[] = [...opening, ...smallTalk, ...discussion, ...closing];
/** The discussion's first and last turn (indices in DESIGN_MEETING). */
export const DISCUSSION_TURNS: [number, number] = [
	opening.length + smallTalk.length,
	opening.length + smallTalk.length + discussion.length - 1,
];
