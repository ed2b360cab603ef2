/**
 * Moved to framing/layout.ts. This old path stays only for the importers outside the tier
 * (tools/bench-render.ts, tools/bench/floor.ts, tools/plan/measure.ts) until they import the new
 * one; nothing in the tier imports it.
 */
export { layoutFor } from "./framing/layout.ts";
