/**
 * How a cropped (vertical or square) clip frames the people in it, as plain constants for the
 * browser and the CLI (`@clipforge/contract/layouts`); jobs.ts builds the request's schema on them.
 *
 * - `auto`: two people steadily in the picture → follow-speaker when who speaks can be told,
 *   stacked when it cannot; otherwise what smart crop on/off draws (one face followed or centre).
 * - `follow-speaker`: the crop cuts to whoever is speaking (held ≥ 1.5 s per turn).
 * - `stacked`: both faces, each cropped around its face, one above the other.
 * - `single`: one picture as before speaker layouts (smart crop on the main face, or the centre).
 */
export const SPEAKER_LAYOUTS = ["auto", "follow-speaker", "stacked", "single"] as const;
export type SpeakerLayout = (typeof SPEAKER_LAYOUTS)[number];

/** What a rendered clip actually showed (the tier's answer to a layout). */
export const FRAMINGS = ["centre", "smart-crop", "follow-speaker", "stacked"] as const;
export type Framing = (typeof FRAMINGS)[number];

/** The split-screen's share of the output height the main video takes, in percent (the rest is the background). */
export const SPLIT_RATIO = { min: 10, max: 90 } as const;
