/**
 * What a clip's score is made of: each component 0-100 in its `scoreBreakdown`. The API's schema
 * and the rankers' ScoreBreakdown type are built from these lists; `relevance` needs a
 * customPrompt and `energy` audio signals (null otherwise).
 */
export const SCORE_FEATURES = ["hook", "story", "payoff", "feeling", "detail", "flow"] as const;
export const OPTIONAL_SCORE_FEATURES = ["relevance", "energy"] as const;

export type ScoreBreakdown = Record<(typeof SCORE_FEATURES)[number], number> & Record<(typeof OPTIONAL_SCORE_FEATURES)[number], number | null>;
