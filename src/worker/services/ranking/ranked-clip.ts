/**
 * What every ranker (the offline one, and the LLM analyses) hands the workflow for each clip.
 */
export interface ScoreBreakdown {
	/** How well the opening pulls a viewer in. */
	hook: number;
	/** Told as a story: narration, a scene, things happening in order. */
	story: number;
	/** It lands: the end completes the thought (a payoff, a punchline, a conclusion). */
	payoff: number;
	/** Emotional charge and movement. */
	feeling: number;
	/** Concrete: names, numbers, specific words. */
	detail: number;
	/** Reads well as a clip: whole sentences, few backchannels and fillers, one topic. */
	flow: number;
	/** How well it matches the custom prompt (null without one). */
	relevance: number | null;
	/** Vocal energy against the video's own level (null without audio signals). */
	energy: number | null;
}

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
