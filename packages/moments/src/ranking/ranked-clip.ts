/**
 * What every ranker (the offline one, and the LLM analyses) hands the workflow for each clip.
 * The score breakdown's components: substance (carries content rather than chatter), hook (opens on
 * the moment's first sentence), story (narration, a scene), payoff (the end lands), feeling, detail
 * (names, numbers, specific words), flow (reads well as a clip), relevance to the custom prompt, and
 * vocal energy; the score is their weighted mean (@clipforge/domain ranking-features.ts).
 */
import type { ScoreBreakdown } from "@clipforge/domain";

export type { ScoreBreakdown };

export interface ClipHooks {
	/** A question the clip raises in its first seconds, when it has one. */
	question: string | null;
	/** A statement that pulls a viewer in, when it has one. */
	statement: string | null;
}

export interface RankedClip {
	start: number;
	end: number;
	/** 0-100: the breakdown's weighted mean (@clipforge/domain ranking-features.ts scoreOf); with a prompt, relevance leads. */
	score: number;
	title: string;
	/** A short headline shown in the clip's first seconds (never a transcript prefix). */
	hookTitle: string;
	viralityReason: string;
	transcript: string;
	scoreBreakdown: ScoreBreakdown;
	hooks: ClipHooks;
	emotions: string[];
	/** A short post description with hashtags. */
	description: string;
}
