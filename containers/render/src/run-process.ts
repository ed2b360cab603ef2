/**
 * Moved to runtime/run-process.ts. This old path stays only for the importers outside the tier
 * (tools/quality/asr-corpus.ts) until they import the new one; nothing in the tier imports it.
 */
export { runProcess } from "./runtime/run-process.ts";
