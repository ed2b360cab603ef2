/**
 * Moved to captions/ass-document.ts. This old path stays only for the importers outside the tier
 * (tools/bench-render.ts) until they import the new one; nothing in the tier imports it.
 */
export { buildAssDocument } from "./captions/ass-document.ts";
