/**
 * A clip is about one thing: a passage holding the turn from one topic to another (where the talk's
 * own vocabulary changes) is worth less to the ranker without a prompt. A weight, not a wall: a
 * passage whose both sides carry a lot may still cross (measured on dev: docs/ranking-experiments.md).
 */
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/worker/domain/video-config";
import { analyseTalk, type TalkAnalysis } from "@clipforge/moments/ranking/offline/talk-analysis";
import { gainPrefix, TOPIC_CROSSING_WEIGHT, visitGains } from "@clipforge/moments/ranking/offline/virality";
import { transcriptOf, type Turn } from "../helpers/talk";

const TOPICS = [
	[
		"The sourdough starter needs flour and water every morning.",
		"A starter that smells of vinegar is hungry for more flour.",
		"Bakers fold the dough every half hour while it rises.",
		"The crust of the loaf browns best in a hot covered pot.",
		"Rye flour makes the starter bubble faster than white flour.",
		"Leave the dough in the fridge overnight for a sour loaf.",
	],
	[
		"The sailing club races small boats on the lake each Sunday.",
		"A boat heels over when the wind fills the sail too fast.",
		"Sailors ease the sheet to keep the boat flat in a gust.",
		"The race starts when the horn sounds from the committee boat.",
		"Light wind on the lake makes the boats drift toward the shore.",
		"The club repairs torn sails in the boathouse over winter.",
	],
	[
		"The orchard grows twelve kinds of apples on the hillside.",
		"Apple trees are pruned in winter while the branches are bare.",
		"Bees from the farm pollinate the apple blossoms in spring.",
		"Frost in May can ruin a whole season of apple blossoms.",
		"Pickers fill wooden crates with apples every autumn morning.",
		"The cider press turns bruised apples into juice for the farm.",
	],
];

/** Each topic's lines said twice over, one sentence a segment (helpers/talk.ts). */
const talkOf = (topics: string[][]) =>
	transcriptOf(topics.flatMap((lines) => [...lines, ...lines]).map((text): Turn => ["A", text]));

describe("topic turns", () => {
	it("a passage holding the turn from one topic to the next loses TOPIC_CROSSING_WEIGHT of gain; no other passage changes", () => {
		const transcript = talkOf(TOPICS);
		const talk = analyseTalk(transcript, { ...defaultConfig(), clipDurationMin: 15, clipDurationMax: 90 }, null)!;
		const turns = [TOPICS[0]!.length * 2, (TOPICS[0]!.length + TOPICS[1]!.length) * 2];
		const gains = (t: TalkAnalysis) => {
			const all = new Map<string, number>();
			visitGains(t, gainPrefix(t), (i, j, gain) => all.set(`${i}-${j}`, gain));
			return all;
		};
		// The same talk read as one topic: its cohesion never dips.
		const flat = { ...talk, reading: { ...talk.reading, continuity: talk.reading.continuity.map(() => 1) } };
		const [asSaid, asOne] = [gains(talk), gains(flat)];
		let crossing = 0;
		for (const [key, gain] of asSaid) {
			const [i, j] = key.split("-").map(Number) as [number, number];
			const holdsTurn = turns.some((k) => i < k && k <= j);
			if (holdsTurn) {
				crossing++;
				// Worth less than the same passage with no turn in it.
				expect(asOne.get(key)! - gain, key).toBeGreaterThan(0);
			}
			expect(asOne.get(key)! - gain, key).toBeCloseTo(holdsTurn ? TOPIC_CROSSING_WEIGHT : 0, 6);
		}
		expect(crossing).toBeGreaterThan(10);
	});
});
