/**
 * Moved to audio/pocketsphinx.ts. This old path stays only for the importers outside the tier
 * (tools/quality/asr-corpus.ts) until they import the new one; nothing in the tier imports it.
 */
export { parsePocketsphinxOutput } from "./audio/pocketsphinx.ts";
