/**
 * Moved to render/jump-cuts.ts. This old path stays only for the importers outside the tier
 * (test/helpers/fake-render-tier.ts) until they import the new one; nothing in the tier imports
 * it.
 */
export { planJumpCuts } from "./render/jump-cuts.ts";
