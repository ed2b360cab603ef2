/**
 * When the talk holds fewer clips than there is room for: the one clip the talk always has when it
 * is not all chatter (`lastResortSpan`), and the note that says why there are fewer, in words a
 * creator reads (`fewerClipsNote`). Room is min(MIN_CLIPS, seconds of speech ÷ the longest clip):
 * 75 s of talk at 15-60 s has room for 1.25 clips, so one clip comes with a note, two without.
 */
import { chatterOf, type Unit } from "../../text/units.ts";
import type { Span } from "./passages.ts";
import type { TalkAnalysis } from "./talk-analysis.ts";

/** The fewest clips a video with room for them gets (rank-offline.ts chooses at least this many). */
export const MIN_CLIPS = 4;

/** Seconds of speech inside [window.start, window.end], and how many of them are chatter. */
export function speechOf(units: Unit[], window: { start: number; end: number }): { speech: number; chatter: number } {
	let speech = 0;
	let chatter = 0;
	for (const u of units) {
		if (u.end <= window.start || u.start >= window.end) continue;
		speech += u.end - u.start;
		chatter += chatterOf(u) * (u.end - u.start);
	}
	return { speech, chatter };
}

/** How many clips the time frame has room for: min(MIN_CLIPS, its speech ÷ the longest clip). */
export function roomFor(talk: Pick<TalkAnalysis, "units" | "frame" | "bounds">): number {
	return Math.min(MIN_CLIPS, speechOf(talk.units, talk.frame).speech / talk.bounds.max);
}

/** Why there are fewer clips than room for them, or null when there are not fewer. */
export function fewerClipsNote(talk: TalkAnalysis, clips: number): string | null {
	if (clips >= roomFor(talk)) return null;
	const { speech, chatter } = speechOf(talk.units, talk.search);
	const { min, max } = talk.bounds;
	const range = min === max ? `${min} s` : `${min}-${max} s`;
	const talkSeconds = `${Math.round(speech)} s of speech`;
	if (clips === 0 && chatter >= speech - 0.5)
		return `No clips: all ${talkSeconds} ${where(talk)} is greetings, sign-offs or housekeeping, with nothing that stands on its own as a clip.`;
	const only = clips === 0 ? "No clips" : `Only ${clips} clip${clips === 1 ? "" : "s"}`;
	if (talk.prompt && (talk.prompt.terms.length > 0 || talk.prompt.onlyMood))
		return `${only}: no other passage of ${range} matches the prompt closely enough.`;
	const chatterPart =
		chatter >= Math.max(5, 0.1 * speech)
			? `${Math.round(chatter)} of the ${talkSeconds} ${where(talk)} are greetings, sign-offs or housekeeping, and the rest`
			: `the ${talkSeconds} ${where(talk)}`;
	return `${only}: ${chatterPart} holds no other complete moment of ${range} that stands on its own without cutting another in half.`;
}

const where = (talk: Pick<TalkAnalysis, "search" | "frame">) =>
	talk.search.start > talk.frame.start + 0.5 || talk.search.end < talk.frame.end - 0.5
		? `in the part the prompt names (${clock(talk.search.start)}-${clock(talk.search.end)})`
		: "in the time frame";

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, "0")}`;

/**
 * The clip a talk that is not all chatter always gets when no passage qualified (every sentence a
 * question left hanging, a range narrower than any run of sentences): the window of the range's
 * length holding the most talk that is not chatter, starting on a sentence. Null when all of it is chatter.
 */
export function lastResortSpan(talk: TalkAnalysis): Span | null {
	const { units, bounds, search, reading } = talk;
	const spans = talk.spans;
	const latestStart = Math.min(talk.frame.end, search.end) - bounds.min;
	let best: { span: Span; value: number } | null = null;
	for (let i = 0; i < units.length; i++) {
		const start = Math.max(talk.frame.start, search.start, Math.min(spans.startAt[i]!, latestStart));
		let j = i;
		while (j + 1 < units.length && spans.endAt[j + 1]! - start <= bounds.max) j++;
		const natural = spans.endAt[j]!;
		const end = natural - start >= bounds.min ? natural : start + bounds.min;
		if (end - start > bounds.max + 1e-6 || end > Math.min(talk.frame.end, search.end) + 1e-6) continue;
		let value = 0;
		for (let k = i; k <= j; k++) value += worthOf(units[k]!, reading.worth[k]!, talk.excluded?.[k] ?? 0);
		if (value > 0 && (!best || value > best.value))
			best = { span: { i, j, start: round2(start), end: round2(end) }, value };
	}
	return best?.span ?? null;
}

/** Seconds of a sentence that are not chatter nor left out by the prompt, weighted by what it is worth. */
const worthOf = (u: Unit, worth: number, excluded: number) =>
	(u.end - u.start) * (1 - chatterOf(u)) * (1 - excluded) * (0.5 + worth);

const round2 = (n: number) => Math.round(n * 100) / 100;
