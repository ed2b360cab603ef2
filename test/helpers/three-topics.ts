/**
 * A generated talk on three topics in turn (gardening, then personal finance, then astronomy),
 * each a run of sentences drawn from its own words with a seeded generator, and the second and
 * third opened as speakers do ("Okay, moving on…", "Next, let's talk about…"). Where each topic
 * starts is known, so tests can check chapters and topic-following parts against it.
 */
import type { Transcript } from "@clipforge/moments/text";
import { transcriptOf, type Turn } from "./talk";

const TOPICS = [
	{
		opener: "Welcome everyone, today we start with the vegetable garden.",
		nouns: [
			"tomatoes",
			"compost",
			"soil",
			"seedlings",
			"garden",
			"watering",
			"mulch",
			"beds",
			"roots",
			"tomato plants",
		],
	},
	{
		opener: "Okay, moving on, let's talk about the household budget.",
		nouns: [
			"budget",
			"savings",
			"mortgage",
			"interest rate",
			"loan",
			"pension",
			"spending",
			"bank account",
			"salary",
			"debt",
		],
	},
	{
		opener: "Next, let's talk about the night sky and the telescope.",
		nouns: [
			"telescope",
			"planets",
			"galaxy",
			"orbit",
			"stars",
			"Jupiter",
			"moons",
			"eyepiece",
			"night sky",
			"comet",
		],
	},
];
const FRAMES = [
	"I think the {a} matters more than the {b} for most people.",
	"When you look at the {a}, the {b} is what changes first.",
	"We spent a whole week on the {a} and the {b} last year.",
	"Most beginners forget that the {a} depends on the {b}.",
	"The trick with the {a} is to check the {b} every single morning.",
	"My neighbour asked me whether the {a} or the {b} should come first.",
	"If the {a} goes wrong, the {b} usually tells you why.",
	"People underestimate how much the {a} shapes the {b} over time.",
];

export interface ThreeTopicTalk {
	transcript: Transcript;
	/** When each topic's first sentence starts (the first is the talk's start). */
	topicStarts: [number, number, number];
}

/** The talk's sentences, and the index of each topic's first sentence. */
export function threeTopicSentences(sentencesPerTopic = 30, seed = 7): { sentences: string[]; firstOfTopic: number[] } {
	let state = seed >>> 0;
	const random = () => {
		state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
		return state / 4294967296;
	};
	const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
	const sentences: string[] = [];
	const firstOfTopic: number[] = [];
	for (const topic of TOPICS) {
		firstOfTopic.push(sentences.length);
		sentences.push(topic.opener);
		for (let s = 0; s < sentencesPerTopic; s++) {
			const a = pick(topic.nouns);
			let b = pick(topic.nouns);
			while (b === a) b = pick(topic.nouns);
			sentences.push(pick(FRAMES).replace("{a}", a).replace("{b}", b));
		}
	}
	return { sentences, firstOfTopic };
}

/** `sentencesPerTopic` sentences on each topic (about 4 s each), as a transcript. */
export function threeTopicTalk(sentencesPerTopic = 30, seed = 7): ThreeTopicTalk {
	const { sentences, firstOfTopic } = threeTopicSentences(sentencesPerTopic, seed);
	const turns: Turn[] = sentences.map((text, i) => [i % 5 === 4 ? "B" : "A", text]);
	const transcript = transcriptOf(turns);
	const starts = firstOfTopic.map((t) => transcript.segments[t]!.start);
	return { transcript, topicStarts: [starts[0]!, starts[1]!, starts[2]!] };
}
