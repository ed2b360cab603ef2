/**
 * What a clip's score is made of: each component 0-100 in its `scoreBreakdown`, and the score
 * itself, which is their weighted mean (so the two always agree: a clip whose parts are all high
 * scores high). The API's schema and the rankers' ScoreBreakdown type are built from these lists;
 * `relevance` needs a customPrompt and `energy` audio signals (null otherwise).
 *
 * - substance: how much of the clip carries content (a story, an explanation, a decision, an opinion
 *   with its reasons) rather than chatter, greetings, time checks or logistics;
 * - hook: how cleanly it opens on the moment's first sentence (a setup, a question, a claim);
 * - payoff: whether it ends on the moment's payoff or the reaction to it;
 * - story: narration (past tense, time, someone's words retold); feeling: emotional language;
 *   detail: names, numbers, specific words; flow: reads cleanly (few fillers, no listener noises);
 * - relevance: how well it matches the custom prompt; energy: vocal energy above the video's usual.
 */
export const SCORE_FEATURES = ["substance", "hook", "story", "payoff", "feeling", "detail", "flow"] as const;
export const OPTIONAL_SCORE_FEATURES = ["relevance", "energy"] as const;

export type ScoreBreakdown = Record<(typeof SCORE_FEATURES)[number], number> &
	Record<(typeof OPTIONAL_SCORE_FEATURES)[number], number | null>;

/** Weights of the score's weighted mean (energy counts only when measured). */
export const SCORE_WEIGHTS: Record<(typeof SCORE_FEATURES)[number] | "energy", number> = {
	substance: 4,
	hook: 1.5,
	payoff: 1.5,
	story: 0.5,
	feeling: 0.5,
	detail: 0.5,
	flow: 0.5,
	energy: 1,
};
/** With a custom prompt, relevance is this share of the score; the weighted mean above is the rest. */
export const RELEVANCE_SHARE = 0.6;

/** The 0-100 score of a breakdown: the weighted mean of its components, relevance first when there is a prompt. */
export function scoreOf(breakdown: ScoreBreakdown): number {
	let sum = 0;
	let weight = 0;
	for (const feature of SCORE_FEATURES) {
		sum += SCORE_WEIGHTS[feature] * breakdown[feature];
		weight += SCORE_WEIGHTS[feature];
	}
	if (breakdown.energy !== null) {
		sum += SCORE_WEIGHTS.energy * breakdown.energy;
		weight += SCORE_WEIGHTS.energy;
	}
	const base = sum / weight;
	return Math.round(
		breakdown.relevance === null ? base : RELEVANCE_SHARE * breakdown.relevance + (1 - RELEVANCE_SHARE) * base,
	);
}
