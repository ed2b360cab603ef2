/**
 * A video's config as the render options of each render request: every row of the contract's
 * RENDER_OPTIONS copies its config option into its request field as it is, so a new render option
 * needs no line of its own where requests are built (`renderRequestFor`).
 */
import { RENDER_OPTION_NAMES, RENDER_OPTIONS, type RenderClipSpec, type RenderOptionName } from "@clipforge/contract";
import type { VideoConfig } from "./video-config";

export type RenderOptionValues = Pick<RenderClipSpec, RenderOptionName>;

export function renderOptionsOf(config: VideoConfig): RenderOptionValues {
	return Object.fromEntries(
		RENDER_OPTION_NAMES.map((name) => [name, config[RENDER_OPTIONS[name].config]]),
	) as RenderOptionValues;
}
