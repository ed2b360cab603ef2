/**
 * The offline ranker: pure TypeScript, no network, deterministic; the engine for dev, tests and
 * any setup without an LLM, and the fallback when the LLM fails.
 *
 * It reads the talk sentence by sentence (moments.ts: how likely each sentence belongs to a moment
 * an editor would cut, and where moments start and end), then scores every passage of whole
 * sentences inside the duration range by what it gains over ordinary talk plus how clean its edges
 * are. With a custom prompt, relevance to the prompt leads (relevance.ts) and the moment model only
 * breaks ties and bounds the clips. Clips never leave [min, max]; a source whose speech is shorter
 * than the minimum gives one clip of its speech. Clips come best score first (the order the API
 * lists them in).
 */
import type { Transcript } from "../../text/transcript.ts";
import { GENERIC_WORDS } from "../../text/lexicon.ts";
import type { RankedClip } from "../ranked-clip.ts";
import { clipFromSpan, distinctTitles, type PromptMatch } from "./clip-details.ts";
import { overlaps, padded, splitIntoParts, type Span } from "./passages.ts";
import { rankForPrompt } from "./prompt-ranking.ts";
import type { ReadPrompt } from "./prompt.ts";
import { relevanceOf, type Relevance } from "./relevance.ts";
import type { AudioSignals } from "./signals.ts";
import { analyseTalk, type RankConfig, type TalkAnalysis } from "./talk-analysis.ts";
import { chooseMoments } from "./virality.ts";
import { fewerClipsNote, lastResortSpan, MIN_CLIPS } from "./fewer-clips.ts";
import { frameOf } from "@clipforge/domain";
import { isEnglish } from "../../text/script.ts";
import { describeChapters } from "../../chapters/offline/describe.ts";
import { segmentUnits } from "../../chapters/offline/segment.ts";

export type { RankConfig, TalkAnalysis };

export interface OfflineRanking {
	clips: RankedClip[];
	/** Why there are fewer clips than usual (a prompt nothing matches), or why the prompt could not narrow them, for the video record. */
	note: string | null;
}

export const MAX_CLIPS = 9;
/** Share of a prompt's topic (its words weighted by rarity here) the video must say before any clip can match it. */
export const COVERAGE_MIN = 0.1;

export function rankOffline(
	transcript: Transcript,
	config: RankConfig,
	signals: AudioSignals | null = null,
): OfflineRanking {
	const talk = analyseTalk(transcript, config, signals);
	if (!talk) return { clips: [], note: noSpeechNote(transcript, config) };
	const ranked = rankTalk(talk, config);
	if (ranked.clips.length > 0 || ranked.note)
		return { clips: ranked.clips, note: ranked.note ?? fewerClipsNote(talk, ranked.clips.length) };
	// Nothing qualified and nothing says why: talk that is not all chatter still gets its best window.
	const last = lastResortSpan(talk);
	const clips = last ? [clipFromSpan(talk, last, null)] : [];
	return { clips, note: fewerClipsNote(talk, clips.length) };
}

function rankTalk(talk: TalkAnalysis, config: RankConfig): OfflineRanking {
	const { units, bounds, frame, prompt, search } = talk;
	const clip = (span: Span, match: PromptMatch | null = null) => clipFromSpan(talk, span, match);

	const all = padded(units, 0, units.length - 1, frame);
	if (all.end - all.start < bounds.min) {
		// Speech shorter than the minimum: one clip of all of it is still useful.
		return { clips: [clip(all)], note: null };
	}
	if (config.clipType === "split-clips") {
		const topics = topicsOf(units, frame, talk.language);
		const byTopic = splitIntoParts(units, bounds, frame, topics.starts, SPLIT_PARTS_ALLOWED);
		// Following the topics adds at most a part per topic; never beyond what the submission was allowed (60 parts).
		const spans =
			byTopic.length < SPLIT_PARTS_ALLOWED
				? byTopic
				: splitIntoParts(units, bounds, frame, [], SPLIT_PARTS_ALLOWED);
		const parts = spans.map((span) => clip(span));
		return {
			// "Part 1:" is English: other talk numbers its parts "1.", a form every script reads.
			clips: parts.map((part, n) => {
				const label = isEnglish(talk.language, part.transcript) ? `Part ${n + 1}:` : `${n + 1}.`;
				return { ...part, title: `${label} ${topics.titleAt(part) ?? part.title}` };
			}),
			note: null,
		};
	}
	if (search.end - search.start < bounds.min) {
		return {
			clips: [],
			note: `No clips: the part of the video the prompt names (${clock(search.start)}-${clock(search.end)}) is shorter than the shortest clip allowed (${bounds.min} s).`,
		};
	}
	let note: string | null = null;
	if (prompt && (prompt.terms.length > 0 || prompt.onlyMood)) {
		const relevance = relevanceOf(units, prompt, frame.start, frame.end, search);
		const unmatched = promptMismatch(prompt, relevance);
		if (!unmatched) {
			const clips = rankForPrompt(talk, relevance).map(({ span, match }) => clip(span, match));
			return {
				clips: ordered(clips),
				note:
					clips.length === 0
						? "No clips: no passage of the allowed length matches the prompt closely enough."
						: null,
			};
		}
		// "The professor's concluding comments": who spoke is not in the transcript, but where is.
		if (!namesOnlyUnsaidSpeakers(prompt, relevance)) return { clips: [], note: `No clips. ${unmatched}` };
		note = speakersNote(prompt);
	}
	const chosen = chooseMoments(talk, MAX_CLIPS, MIN_CLIPS);
	return { clips: ordered(chosen.map((span) => clip(span))), note };
}

/** Why a video with no speech in its time frame has no clips. */
function noSpeechNote(transcript: Transcript, config: RankConfig): string {
	const frame = frameOf(config, transcript.duration);
	const whole = frame.start <= 0 && frame.end >= transcript.duration;
	return whole
		? "No clips: no speech was heard in the video."
		: `No clips: no speech was heard in the time frame (${clock(frame.start)}-${clock(frame.end)}).`;
}

/** services/configure-video.ts MAX_SPLIT_PARTS: what a split-clips submission is checked against. */
const SPLIT_PARTS_ALLOWED = 60;

/**
 * The frame's topics, as the whole video's offline chapters are found: the first
 * unit of each, and the title of the topic a part lies mostly in (null when the frame is one topic).
 */
function topicsOf(
	units: TalkAnalysis["units"],
	frame: { start: number; end: number },
	language: string,
): { starts: number[]; titleAt: (span: { start: number; end: number }) => string | null } {
	const starts = segmentUnits(units, frame.end - frame.start);
	if (starts.length < 2) return { starts, titleAt: () => null };
	const groups = starts.map((s, k) => units.slice(s, starts[k + 1] ?? units.length));
	const titles = describeChapters(groups, language).map((t) => t.title);
	return {
		starts,
		titleAt: (span) => {
			let best = 0;
			let most = -1;
			groups.forEach((group, k) => {
				const shared = Math.min(span.end, group[group.length - 1]!.end) - Math.max(span.start, group[0]!.start);
				if (shared > most) {
					most = shared;
					best = k;
				}
			});
			return titles[best]!;
		},
	};
}

/**
 * Why no clip can match the prompt, or null when one can: none of its topic words is said, or only
 * generic ones, or too little of a many-word topic (below COVERAGE_MIN).
 */
function promptMismatch(prompt: ReadPrompt, relevance: Relevance): string | null {
	const topic = prompt.terms.filter((t) => !t.context).map((t) => t.word);
	if (topic.length > 0 && relevance.found.size === 0 && prompt.moods.length === 0)
		return `Nothing in the video matches the prompt: none of "${topic.join('", "')}" is said.`;
	const said = prompt.terms.filter((t) => relevance.found.has(t.stem));
	// A match needs a word that names the topic: a month or "things" said in passing is not one.
	if (
		topic.length > 0 &&
		prompt.moods.length === 0 &&
		said.length > 0 &&
		(said.every((t) => GENERIC_WORDS.has(t.word) || t.context) ||
			(topic.length > 1 && relevance.coverage < COVERAGE_MIN))
	)
		return `Too little of the prompt is said to match it: only "${said.map((t) => t.word).join('", "')}" of "${topic.join('", "')}", which says nothing of what it is about.`;
	return null;
}

/** Whether the prompt's topic is only who spoke ("what did the chair say"), and none of it is said. */
function namesOnlyUnsaidSpeakers(prompt: ReadPrompt, relevance: Relevance): boolean {
	const topic = prompt.terms.filter((t) => !t.context);
	return (
		topic.length > 0 && prompt.moods.length === 0 && topic.every((t) => t.speaker && !relevance.found.has(t.stem))
	);
}

function speakersNote(prompt: ReadPrompt): string {
	const who = prompt.terms.filter((t) => t.speaker).map((t) => t.word.replace(/'s$/, ""));
	return `The transcript does not say who is speaking, so "${who.join(" ")}" cannot narrow the clips: they are the best moments of the part of the video the prompt names.`;
}

/** Best score first; titles made distinct within the video. */
function ordered(clips: RankedClip[]): RankedClip[] {
	return distinctTitles([...clips].sort((a, b) => b.score - a.score));
}

export { overlaps };

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, "0")}`;
