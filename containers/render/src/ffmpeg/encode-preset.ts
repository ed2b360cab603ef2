/**
 * The x264 preset of every rendered clip: the operator's trade between CPU time and file size.
 * `veryfast` unless `X264_PRESET` says otherwise: at CRF 21 it keeps a 1080x1920 clip's bitrate
 * about half of `ultrafast`'s for 2.4x the encoder's CPU (docs/rendering.md). The test stacks of
 * `make test` run `ultrafast` (docs/testing.md): their checks read what a viewer sees, never bytes.
 */
export const X264_PRESETS = [
	"ultrafast",
	"superfast",
	"veryfast",
	"faster",
	"fast",
	"medium",
	"slow",
	"slower",
	"veryslow",
] as const;

export type X264Preset = (typeof X264_PRESETS)[number];

export const DEFAULT_X264_PRESET: X264Preset = "veryfast";

/** The configured preset; a name x264 does not know stops the tier at startup, named. */
export function x264Preset(env: Record<string, string | undefined> = process.env): X264Preset {
	const value = env.X264_PRESET?.trim();
	if (!value) return DEFAULT_X264_PRESET;
	const known = X264_PRESETS.find((preset) => preset === value);
	if (!known) throw new Error(`X264_PRESET "${value}" is not an x264 preset (one of ${X264_PRESETS.join(", ")}).`);
	return known;
}
