/**
 * What a clip is scored on: each feature 0-100 in its `scoreBreakdown`. The API's schema is built
 * from this list; `energy` needs audio signals and `relevance` a customPrompt (null otherwise).
 */
export const SCORE_FEATURES = ["hook", "emotion", "salience", "pace", "completeness"] as const;
export const OPTIONAL_SCORE_FEATURES = ["energy", "relevance"] as const;
