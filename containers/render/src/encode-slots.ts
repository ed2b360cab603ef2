/**
 * Moved to runtime/encode-slots.ts. This old path stays only for the importers outside the tier
 * (tools/plan/simulate.ts) until they import the new one; nothing in the tier imports it.
 */
export { Slots } from "./runtime/encode-slots.ts";
