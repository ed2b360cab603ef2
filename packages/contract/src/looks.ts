/**
 * Caption looks as plain data (no zod, so the dashboard and the CLI can import them through
 * `@clipforge/contract/words`): the fonts the render tier has installed, the preset looks, and
 * the few fields a workspace may override in a saved template of its own (its brand kit).
 *
 * A look is everything the tier needs to draw captions; the Worker resolves a template id
 * (`karaoke`, `boxed`, … or `custom:<id>`) into one and sends it with each render. The tier knows
 * no presets: it draws whatever look it is given.
 */

/**
 * Fonts a look may use: each one is installed by scripts/install-deps.sh and the render tier's
 * Dockerfile (the Debian package is named). `family` is what libass asks fontconfig for;
 * `widthFactor` scales the tier's line-width estimate (DejaVu Sans Bold = 1).
 */
export const CAPTION_FONTS = [
	{
		id: "dejavu-sans",
		name: "DejaVu Sans Bold",
		family: "DejaVu Sans",
		bold: true,
		widthFactor: 1,
		file: "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
		debianPackage: "fonts-dejavu-core",
	},
	{
		id: "dejavu-serif",
		name: "DejaVu Serif Bold",
		family: "DejaVu Serif",
		bold: true,
		widthFactor: 1.02,
		file: "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf",
		debianPackage: "fonts-dejavu-core",
	},
	{
		id: "noto-sans",
		name: "Noto Sans Bold",
		family: "Noto Sans",
		bold: true,
		widthFactor: 0.93,
		file: "/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf",
		debianPackage: "fonts-noto-core",
	},
	{
		id: "lato-black",
		name: "Lato Black",
		family: "Lato Black",
		bold: false,
		widthFactor: 0.9,
		file: "/usr/share/fonts/truetype/lato/Lato-Black.ttf",
		debianPackage: "fonts-lato",
	},
	{
		id: "bebas-neue",
		name: "Bebas Neue",
		family: "Bebas Neue",
		bold: true,
		widthFactor: 0.62,
		file: "/usr/share/fonts/opentype/bebas-neue/BebasNeue-Bold.otf",
		debianPackage: "fonts-bebas-neue",
	},
] as const;
export type CaptionFontId = (typeof CAPTION_FONTS)[number]["id"];
export const CAPTION_FONT_IDS = CAPTION_FONTS.map((f) => f.id) as [CaptionFontId, ...CaptionFontId[]];

/**
 * Faces for scripts a look's font does not draw. Wherever a caption's (or hook title's) text is in a
 * script the look's font lacks, the tier draws it in the first face listed for that script that has
 * all of its characters (else the last one), bold, at the look's em size, instead of leaving the
 * choice (possibly a regular, serif or looped face, or tofu) to fontconfig. Hebrew and Arabic try
 * DejaVu Sans first: it also has Latin letters, digits and punctuation, so a line mixing them is
 * drawn in one face (one box per line in boxed looks), which Noto Sans Hebrew (no digits) and Noto
 * Sans Arabic (no Latin) cannot do. `script` is the Unicode script name (`\p{Script=…}`), `family`
 * what libass asks fontconfig for.
 */
const NOTO = "/usr/share/fonts/truetype/noto";
const noto = (script: string, name = script) =>
	({
		script,
		family: `Noto Sans ${name}`,
		file: `${NOTO}/NotoSans${name}-Bold.ttf`,
		debianPackage: "fonts-noto-core",
	}) as const;
const notoSans = (script: string) =>
	({ script, family: "Noto Sans", file: `${NOTO}/NotoSans-Bold.ttf`, debianPackage: "fonts-noto-core" }) as const;
const dejaVuSans = (script: string) =>
	({
		script,
		family: "DejaVu Sans",
		file: "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
		debianPackage: "fonts-dejavu-core",
	}) as const;
export const FALLBACK_FONTS = [
	notoSans("Latin"),
	notoSans("Greek"),
	notoSans("Cyrillic"),
	dejaVuSans("Arabic"),
	noto("Arabic"),
	dejaVuSans("Hebrew"),
	noto("Hebrew"),
	noto("Devanagari"),
	noto("Bengali"),
	noto("Gurmukhi"),
	noto("Gujarati"),
	noto("Oriya"),
	noto("Tamil"),
	noto("Telugu"),
	noto("Kannada"),
	noto("Malayalam"),
	noto("Sinhala"),
	noto("Thai"),
	noto("Lao"),
	noto("Khmer"),
	noto("Myanmar"),
	noto("Georgian"),
	noto("Armenian"),
	noto("Ethiopic"),
	noto("Thaana"),
] as const;

/**
 * Chinese, Japanese and Korean (Han, kana, Bopomofo, Hangul) in Noto Sans CJK Bold
 * (`fonts-noto-cjk`), in the regional family the transcript's text points to: kana → JP, Hangul →
 * KR, traditional-only characters → TC, else SC (the same Han character is drawn differently in each).
 */
export const CJK_FALLBACK_FONT = {
	scripts: ["Han", "Hiragana", "Katakana", "Bopomofo", "Hangul"],
	families: { JP: "Noto Sans CJK JP", KR: "Noto Sans CJK KR", SC: "Noto Sans CJK SC", TC: "Noto Sans CJK TC" },
	file: "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
	debianPackage: "fonts-noto-cjk",
} as const;

/**
 * Monochrome emoji for the `emoji-accents` look (Debian `fonts-symbola`). The colour emoji font
 * (`fonts-noto-color-emoji`) draws nothing with this libass/freetype, so it is never asked for.
 */
export const EMOJI_FONT = {
	family: "Symbola",
	file: "/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf",
	debianPackage: "fonts-symbola",
} as const;

/**
 * How the words appear:
 * - `karaoke`: a page of words stays up while it is spoken, the spoken word in the highlight colour;
 * - `highlight-box`: the same pages, the spoken word on a box of the highlight colour;
 * - `word`: one word at a time, popping in (125% → 100% in 100 ms);
 * - `page`: the page shown whole while it is spoken (optionally popping in), no per-word change.
 */
export const CAPTION_ANIMATIONS = ["karaoke", "highlight-box", "word", "page"] as const;
export type CaptionAnimation = (typeof CAPTION_ANIMATIONS)[number];

/**
 * Where the caption block sits. `bottom` is the safe area above the apps' buttons (70% of a 9:16
 * frame; on the seam in split-screen); `lower-third` is left-aligned in the frame's lower third,
 * clear of the right-hand buttons.
 */
export const CAPTION_POSITIONS = ["bottom", "middle", "top", "lower-third"] as const;
export type CaptionPosition = (typeof CAPTION_POSITIONS)[number];

/** `#RRGGBB`. */
export type HexColor = `#${string}`;
export const HEX_COLOR = /^#[0-9A-Fa-f]{6}$/;

/** Everything the tier needs to draw a caption look. */
export interface CaptionLookData {
	animation: CaptionAnimation;
	font: CaptionFontId;
	/** Size relative to the layout's caption size for the aspect ratio (1 = 76 px on 9:16). */
	fontScale: number;
	uppercase: boolean;
	textColor: HexColor;
	/** The spoken word (karaoke), its box (highlight-box), the second line (two-colour), emoji and the lower-third's bar. */
	highlightColor: HexColor;
	outlineColor: HexColor;
	/** Outline thickness as a fraction of the font size (0 = none). */
	outline: number;
	/** A box behind each line (`opacity` 0-1), or none. */
	box: { color: HexColor; opacity: number } | null;
	position: CaptionPosition;
	/** Lines per page, and words per page / per line (null = as many as fit). */
	maxLines: number;
	maxWordsPerPage: number | null;
	maxWordsPerLine: number | null;
	/** Lines of a page alternate text colour and highlight colour. */
	alternateLineColors: boolean;
	/** The page pops in (125% → 100% in 100 ms) when it appears. */
	pop: boolean;
	/** An emoji for the page's first keyword (money → 💰, idea → 💡, …) above it, from the keyword on. */
	emoji: boolean;
	/** A thin bar of the highlight colour at the block's left edge (lower-third looks). */
	accentBar: boolean;
}

const base = {
	font: "dejavu-sans",
	fontScale: 1,
	uppercase: false,
	textColor: "#FFFFFF",
	highlightColor: "#FFE600",
	outlineColor: "#000000",
	outline: 0.1,
	box: null,
	position: "bottom",
	maxLines: 2,
	maxWordsPerPage: 8,
	maxWordsPerLine: null,
	alternateLineColors: false,
	pop: false,
	emoji: false,
	accentBar: false,
} as const satisfies Omit<CaptionLookData, "animation">;

/**
 * The preset looks, in the order pickers show them. The first three are the seed's styles,
 * drawn exactly as before (their golden screenshots are unchanged).
 */
export const CAPTION_PRESETS = [
	{
		id: "karaoke",
		name: "Karaoke",
		description: "Two-line pages; the spoken word turns yellow.",
		look: { ...base, animation: "karaoke" },
	},
	{
		id: "word-by-word",
		name: "Word by word",
		description: "One word at a time, upper case, popping in.",
		look: { ...base, animation: "word", uppercase: true, maxLines: 1, maxWordsPerPage: 1 },
	},
	{
		id: "sentence",
		name: "Sentence",
		description: "Whole sentences, up to three lines, while they are spoken.",
		look: { ...base, animation: "page", maxLines: 3, maxWordsPerPage: null },
	},
	{
		id: "bold-outline",
		name: "Bold outline",
		description: "Big upper-case chunks of up to three words with a heavy black outline, popping in.",
		look: {
			...base,
			animation: "page",
			fontScale: 1.25,
			uppercase: true,
			outline: 0.17,
			maxLines: 1,
			maxWordsPerPage: 3,
			pop: true,
		},
	},
	{
		id: "boxed",
		name: "Boxed",
		description: "Clean white text on a dark translucent box, two lines at a time.",
		look: {
			...base,
			animation: "page",
			font: "lato-black",
			outline: 0,
			box: { color: "#000000", opacity: 0.72 },
			maxWordsPerPage: 10,
		},
	},
	{
		id: "highlight-box",
		name: "Highlight box",
		description: "Upper-case pages; the spoken word sits on a purple box.",
		look: {
			...base,
			animation: "highlight-box",
			uppercase: true,
			highlightColor: "#8A2BE2",
			outline: 0.08,
			maxWordsPerPage: 6,
		},
	},
	{
		id: "two-color",
		name: "Two colours",
		description: "Short upper-case lines, white over yellow, in Bebas Neue.",
		look: {
			...base,
			animation: "page",
			font: "bebas-neue",
			fontScale: 1.45,
			uppercase: true,
			outline: 0.08,
			maxWordsPerPage: 6,
			maxWordsPerLine: 3,
			alternateLineColors: true,
			pop: true,
		},
	},
	{
		id: "emoji-accents",
		name: "Emoji accents",
		description: "Karaoke pages with an emoji above for keywords (money 💰, idea 💡, love ❤, …).",
		look: { ...base, animation: "karaoke", emoji: true, maxWordsPerPage: 6 },
	},
	{
		id: "minimal-lower-third",
		name: "Minimal lower third",
		description: "Small left-aligned text on a faint box in the lower third, with a yellow bar.",
		look: {
			...base,
			animation: "page",
			font: "noto-sans",
			fontScale: 0.62,
			outline: 0,
			box: { color: "#000000", opacity: 0.45 },
			position: "lower-third",
			maxWordsPerPage: 12,
			accentBar: true,
		},
	},
] as const satisfies readonly { id: string; name: string; description: string; look: CaptionLookData }[];
export type CaptionPresetId = (typeof CAPTION_PRESETS)[number]["id"];
export const CAPTION_PRESET_IDS = CAPTION_PRESETS.map((p) => p.id) as [CaptionPresetId, ...CaptionPresetId[]];

/** A workspace's saved template is named `custom:<id>` in a config's `captionTemplateId`. */
export const CUSTOM_TEMPLATE_PREFIX = "custom:";

export function presetLook(id: CaptionPresetId): CaptionLookData {
	return structuredClone(CAPTION_PRESETS.find((p) => p.id === id)!.look) as CaptionLookData;
}
