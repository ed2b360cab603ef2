/**
 * Everything the rankers read from one transcript and config, computed once: the time frame, the
 * prompt as read, the duration range, the annotated sentences, the moment model's reading, every
 * candidate passage, and each sentence's lift from vocal energy and an asked-for mood. The LLM paths
 * reuse it to check and fit the spans a model proposes.
 */
import { frameOf, type ConfigShape } from "@clipforge/domain";
import type { Transcript } from "../../text/transcript.ts";
import { chatterOf, unitsOf, type Unit } from "../../text/units.ts";
import { readMoments, type MomentReading } from "./moments.ts";
import { durationBounds, LEAD, searchWindow, SpanSpace, TAIL, type Bounds, type Frame } from "./passages.ts";
import { readPrompt, type ReadPrompt } from "./prompt.ts";
import { exclusionScorer, moodScorer, withCompoundsSaidApart } from "./relevance.ts";
import { energyReader, type AudioSignals, type EnergyOf } from "./signals.ts";

export type RankConfig = Pick<
	ConfigShape,
	"clipType" | "clipDurationMin" | "clipDurationMax" | "timeframeStart" | "timeframeEnd" | "customPrompt"
> &
	Partial<Pick<ConfigShape, "genre">>;

/**
 * Per second of talk: how much a full lift of vocal energy adds to p, by genre (a stream's best
 * moments are its loudest reactions; a lecture's are not), and how much a sentence carrying the
 * asked-for mood adds.
 */
const ENERGY_WEIGHT: Record<NonNullable<RankConfig["genre"]>, number> = {
	Auto: 0.5,
	Gaming: 1.2,
	Entertainment: 0.8,
	Podcast: 0.4,
	Education: 0.3,
};
const MOOD_WEIGHT = 0.4;
/**
 * How far a sentence carrying what the prompt leaves out sinks (far below any moment), and the
 * talk within EXCLUDED_REACH seconds of it half as far: the sentences around "the pumpkin contest"
 * are about it too, even when they say "it".
 */
const EXCLUDED_WEIGHT = 3;
const EXCLUDED_REACH = 15;
/** How far a sentence of chatter, greetings, time checks or logistics sinks: below the bar, whatever its fluency. */
const CHATTER_WEIGHT = 0.6;

/** Everything both rankers read from one transcript and config (the LLM paths reuse it to check and fit spans). */
export interface TalkAnalysis {
	/** The transcript's language ("en", "hi", "und" …): what the clips' words are written in. */
	language: string;
	frame: Frame;
	prompt: ReadPrompt | null;
	promptText: string | null;
	bounds: Bounds;
	units: Unit[];
	reading: MomentReading;
	energy: EnergyOf | null;
	/**
	 * Added to each sentence's moment probability: vocal energy (weighted by genre), for a prompt
	 * that names only a mood that mood, and minus what the prompt leaves out ("skip the arguing").
	 */
	lift: number[];
	/** Per sentence, 0..1: how much it is what the prompt leaves out (named, or said within 15 s of it); null when nothing is. */
	excluded: number[] | null;
	/** Where clips may lie: the frame, narrowed by the prompt's place ("the last ten minutes"). */
	search: Frame;
	/** Every passage that may be a clip (iterable; never all in memory). */
	spans: SpanSpace;
}

export function analyseTalk(
	transcript: Transcript,
	config: RankConfig,
	signals: AudioSignals | null,
): TalkAnalysis | null {
	const frame = frameOf(config, transcript.duration);
	const promptText = config.customPrompt?.trim() || null;
	const prompt = promptText ? readPrompt(promptText) : null;
	const bounds = durationBounds(config, prompt);
	const units = withCompoundsSaidApart(
		unitsOf(transcript, frame.start, frame.end, bounds.max - LEAD - TAIL),
		prompt?.compounds ?? [],
	);
	if (units.length === 0) return null;
	const reading = readMoments(units);
	const search = searchWindow(units, prompt, frame);
	const spans = new SpanSpace(units, bounds, frame, search);
	const energy = energyReader(signals);
	const energyWeight = ENERGY_WEIGHT[config.genre ?? "Auto"];
	// No topic: a mood ("the most surprising moments") lifts the sentences that carry it.
	const mood = prompt && prompt.terms.length === 0 && prompt.moods.length > 0 ? moodScorer(prompt.moods) : null;
	// "skip the arguing", "without the ads": sentences that carry it sink.
	const excluded = prompt ? exclusionScorer(prompt) : null;
	const pushedAway = excluded
		? spreadExclusion(
				units,
				units.map((u) => Math.min(1, excluded(u))),
			)
		: null;
	const lift = units.map(
		(u, k) =>
			(energy ? energyWeight * (energy(u.start, u.end) - 0.5) : 0) +
			(mood ? MOOD_WEIGHT * Math.min(1, mood(u) / 2) : 0) -
			(pushedAway ? EXCLUDED_WEIGHT * pushedAway[k]! : 0) -
			CHATTER_WEIGHT * chatterOf(u),
	);
	const language = transcript.language;
	return {
		language,
		frame,
		prompt,
		promptText,
		bounds,
		units,
		reading,
		energy,
		lift,
		excluded: pushedAway,
		search,
		spans,
	};
}

/** Each sentence's exclusion, or half of the strongest one said within EXCLUDED_REACH seconds. */
function spreadExclusion(units: Unit[], own: number[]): number[] {
	return own.map((value, k) => {
		let near = 0;
		for (let n = k - 1; n >= 0 && units[k]!.start - units[n]!.end <= EXCLUDED_REACH; n--)
			near = Math.max(near, own[n]!);
		for (let n = k + 1; n < units.length && units[n]!.start - units[k]!.end <= EXCLUDED_REACH; n++)
			near = Math.max(near, own[n]!);
		return Math.max(value, near / 2);
	});
}
