/**
 * The light part of the transcript text model, without the English tagger (wink-nlp): the stored
 * transcript's shape and its sentences, words as written, lines as quoted. The Worker reads it on
 * every request path; the tagged sentences (units.ts, nlp.ts) load only with the ranker.
 */
export * from "./transcript.ts";
export * from "./written-case.ts";
export * from "./quoted.ts";
export * from "./captions-input.ts";
export * from "./guess-language.ts";
export * from "./script.ts";
