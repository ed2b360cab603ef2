/**
 * What every ranker (the offline one, and the LLM analyses) hands the workflow for each clip.
 * The score breakdown's components: hook (how the opening pulls a viewer in), story (narration, a
 * scene), payoff (the end lands), feeling, detail (names, numbers, specific words), flow (reads well
 * as a clip), relevance to the custom prompt, and vocal energy (domain/ranking-features.ts).
 */
import type { ScoreBreakdown } from "../../domain/ranking-features";

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
	/** 0-100: how likely a viewer watches to the end and shares (with a prompt: how well it matches). */
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
