/**
 * Moved to render/clip.ts. This old path stays only for the importers outside the tier
 * (tools/bench-render.ts) until they import the new one; nothing in the tier imports it.
 */
export { renderClip } from "./render/clip.ts";
