/**
 * `npx tsx tools/quality/chapter-experiments/speaker-terms.ts` (GRID, PRICES, MINWORDS): each sentence also
 * "says" its speaker (QMSum's own label of the turn, which the pipeline's transcripts do not carry) as
 * pseudo-terms, so a change of who talks reads as a change of vocabulary. Dev only (docs/chapters.md).
 */
import { DEFAULT_SEGMENT_PARAMS, segmentUnits } from "@clipforge/moments/chapters/offline/segment";
import { buildChapterCorpus, chapterStartsOf, scoreSegmenter, type ChapterItem } from "../chapters-eval.ts";
import { loadQmsumTrain } from "../qmsum.ts";
import { hashSeed, turnsToTranscript } from "../turns-to-transcript.ts";

const half = (process.env.HALF ?? "dev") as "dev";
const items = buildChapterCorpus(half)!;
const meetings = new Map(loadQmsumTrain(half)!.map((m) => [m.id, m]));

function speakersOf(item: ChapterItem): string[] {
	const meeting = meetings.get(item.id)!;
	const { turnTimes } = turnsToTranscript(meeting.turns, { seed: hashSeed(meeting.id), style: "whisper" });
	let turn = 0;
	return item.units.map((u) => {
		const mid = (u.start + u.end) / 2;
		while (turn + 1 < turnTimes.length && turnTimes[turn + 1]!.start <= mid) turn++;
		return meeting.turns[turn]!.speaker;
	});
}
const speakers = new Map(items.map((item) => [item.id, speakersOf(item)]));

const withSpeakers = (copies: number, minWords: number) =>
	items.map((item) => {
		const who = speakers.get(item.id)!;
		return {
			...item,
			units: item.units.map((u, i) => ({
				...u,
				terms:
					u.wordCount >= minWords
						? [...u.terms, ...Array.from({ length: copies }, () => `@spk:${who[i]}`)]
						: u.terms,
			})),
		};
	});

const grid = (process.env.GRID ?? "0,1,2,3,5").split(",").map(Number);
const prices = (process.env.PRICES ?? "100").split(",").map(Number);
const minWords = Number(process.env.MINWORDS ?? 0);
for (const copies of grid)
	for (const chapterPrice of prices) {
		const data = withSpeakers(copies, minWords);
		const params = { ...DEFAULT_SEGMENT_PARAMS, chapterPrice };
		const score = scoreSegmenter(data, (item) =>
			chapterStartsOf(item, segmentUnits(item.units, item.transcript.duration, params)),
		);
		const oracle = scoreSegmenter(data, (item) =>
			chapterStartsOf(
				item,
				segmentUnits(item.units, item.transcript.duration, { ...params, chapterPrice: 1e12 }, item.topicCount),
			),
		);
		console.log(JSON.stringify({ copies, chapterPrice, minWords, ...score, oracle: oracle.pk }));
	}
