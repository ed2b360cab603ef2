/**
 * Chapters of a whole video without a model: topic segmentation over the transcript's sentences
 * (segment.ts: the likeliest split of its words into topics), kept to YouTube's rules
 * (@clipforge/domain chapters.ts), each titled and summarised from its own salient terms (describe.ts).
 */
import { chapterSpans, NO_SPEECH_NOTE, TOO_SHORT_NOTE, type VideoChapters } from "@clipforge/domain";
import { chapterUnitsOf, type ChapterUnit as Unit } from "./chapter-units.ts";
import type { Transcript } from "../../text/transcript.ts";
import { describeChapters, summaryOf } from "./describe.ts";
import { DEFAULT_SEGMENT_PARAMS, segmentUnits, type SegmentParams } from "./segment.ts";

export function chaptersOffline(
	transcript: Pick<Transcript, "segments" | "duration">,
	params: SegmentParams = DEFAULT_SEGMENT_PARAMS,
): VideoChapters {
	const units = chapterUnitsOf(transcript);
	return chaptersOfUnits(units, transcript.duration, params);
}

export function chaptersOfUnits(
	units: Unit[],
	duration: number,
	params = DEFAULT_SEGMENT_PARAMS,
	language = "en",
): VideoChapters {
	const wholeSummary = (groups: Unit[][]) => summaryOf(describeChapters(groups, language), groups, language);
	if (units.length === 0) return { chapters: [], summary: "", madeBy: "offline", note: NO_SPEECH_NOTE };
	const starts = segmentUnits(units, duration, params);
	// A topic starts where its first sentence starts; the chapter starts in the silence before it.
	const spans = chapterSpans(
		starts.slice(1).map((i) => startBefore(units, i)),
		duration,
	);
	if (!spans) return { chapters: [], summary: wholeSummary([units]), madeBy: "offline", note: TOO_SHORT_NOTE };
	const groups = spans.map((s, i) =>
		units.filter((u) => {
			const mid = (u.start + u.end) / 2;
			return mid >= s.start && (mid < s.end || i === spans.length - 1);
		}),
	);
	const texts = describeChapters(groups, language);
	return {
		chapters: spans.map((s, i) => ({ ...s, title: texts[i]!.title, summary: texts[i]!.summary })),
		summary: summaryOf(texts, groups, language),
		madeBy: "offline",
		note: null,
	};
}

/** Just before unit `i` speaks: halfway into the pause, at most half a second early. */
function startBefore(units: Unit[], i: number): number {
	const at = units[i]!.start;
	const previousEnd = units[i - 1]?.end ?? 0;
	return Math.max(previousEnd, at - Math.min(0.5, (at - previousEnd) / 2));
}
