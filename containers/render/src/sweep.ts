/**
 * Moved to runtime/sweep.ts. This old path stays only for the importers outside the tier
 * (tools/soak/soak.ts) until they import the new one; nothing in the tier imports it.
 */
export { jobFilesIn } from "./runtime/sweep.ts";
