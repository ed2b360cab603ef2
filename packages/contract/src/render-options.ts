/**
 * Render options as one table: each a choice of the video's config that the render request carries
 * as it is, for the tier to draw. A row is the request's field (its name here, its schema and the
 * default the tier assumes when a request leaves it out) and the config option it comes from (that
 * option's row of the config table, spread into `CONFIG_OPTIONS` by @clipforge/domain). So a new
 * render option is one row here plus the tier's drawing of it: the request's schema (jobs.ts,
 * `renderOptionsShape`), the Worker's copy from the config into each request
 * (`renderOptionsOf`, src/worker/domain/render-options.ts) and the API, MCP, CLI and dashboard
 * (through the config table) are derived from the row.
 * No zod in this file: @clipforge/domain (plain data) and the dashboard read it through words.ts.
 */
import { SPEAKER_LAYOUTS } from "./layouts.ts";

/** One render option; `option` is typed by the config table where it is spread (`ConfigOption`). */
export interface RenderOptionRow {
	/** The config option's name. */
	config: string;
	/** What the tier draws when the request leaves the field out (requests from before the option). */
	requestDefault: string | number | boolean;
	/** The config table's row of the option: type, default, label, help, CLI flags, form place. */
	option: ({ type: "boolean" } | { type: "enum"; choices: readonly [string, ...string[]] }) & {
		default: string | number | boolean;
		[more: string]: unknown;
	};
}

export const RENDER_OPTIONS = {
	/** Follow the main face instead of cropping the centre. */
	smartCrop: {
		config: "enableSmartCrop",
		requestDefault: false,
		option: {
			type: "boolean",
			default: false,
			label: "Smart crop (follow faces)",
			help: "Follow the speaker's face when cropping.",
			cli: [
				{
					flag: "--smart-crop",
					negate: "--no-smart-crop",
					help: "follow the speaker's face",
					negateHelp: "crop at the centre",
				},
			],
			form: { group: "look" },
		},
	},
	/**
	 * Framing of two people (layouts.ts). `single` (the tier's default, as before speaker layouts)
	 * leaves it to `smartCrop`; the others look for faces in a cropped output. With fewer than two
	 * people, `auto` falls back to `smartCrop`'s choice, `follow-speaker` and `stacked` follow the one face.
	 */
	layout: {
		config: "layout",
		requestDefault: "single",
		option: {
			type: "enum",
			choices: SPEAKER_LAYOUTS,
			default: "auto",
			label: "Two-person layout",
			help: "How a vertical or square clip frames two people. auto: with enableSmartCrop on, a speaker layout when two faces are steadily in view (follow-speaker when who speaks can be told, stacked when not), otherwise smart crop; with it off, the centre (no face scan); follow-speaker: cut to the active speaker; stacked: both faces, one above the other; single: never a speaker layout.",
			cli: [
				{
					flag: "--layout <layout>",
					help: "two-person framing: auto, follow the active speaker, stack both faces, or never",
				},
			],
			form: { group: "look" },
		},
	},
} as const satisfies Record<string, RenderOptionRow>;

export type RenderOptions = typeof RENDER_OPTIONS;
export type RenderOptionName = keyof RenderOptions;
export const RENDER_OPTION_NAMES = Object.keys(RENDER_OPTIONS) as RenderOptionName[];

/** The config table's rows of the render options, keyed by the config option's name. */
export type RenderConfigOptions = { [K in RenderOptionName as RenderOptions[K]["config"]]: RenderOptions[K]["option"] };
export const RENDER_CONFIG_OPTIONS = Object.fromEntries(
	RENDER_OPTION_NAMES.map((name) => [RENDER_OPTIONS[name].config, RENDER_OPTIONS[name].option]),
) as RenderConfigOptions;
