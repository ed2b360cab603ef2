/**
 * ASS syntax: literal text inside a Dialogue line, colours in override tags, Dialogue lines and
 * their times. Pure.
 */

/**
 * Makes any text literal inside an ASS Dialogue line. libass (0.17) reads `{…}` as override tags
 * and `\N`, `\n`, `\h` as breaks: braces get its `\{` `\}` escapes, and a word joiner (U+2060,
 * invisible) after every backslash stops it starting an escape. Line breaks become spaces (we
 * place our own), and commas are safe because Text is the last field.
 * @example escapeAssText("a {b} \\N c") // "a \\{b\\} \\\u2060N c"
 */
export function escapeAssText(text: string): string {
	return text
		.replace(/[\r\n]+/g, " ")
		.replace(/\\/g, "\\\u2060")
		.replace(/[{}]/g, (c) => `\\${c}`);
}

/** Override tags take `&HBBGGRR&` (no alpha byte). */
export const overrideColour = (colour: string) => `&H${colour.slice(-6)}&`;

export function dialogue(start: number, end: number, style: string, text: string, layer = 0): string {
	return `Dialogue: ${layer},${assTime(start)},${assTime(Math.max(end, start + 0.01))},${style},,0,0,0,,${text}`;
}

/** `H:MM:SS.cc`, rounded to the nearest centisecond. */
export function assTime(seconds: number): string {
	const cs = Math.round(Math.max(0, seconds) * 100);
	const h = Math.floor(cs / 360_000);
	const m = Math.floor((cs % 360_000) / 6000);
	const s = Math.floor((cs % 6000) / 100);
	return `${h}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}.${String(cs % 100).padStart(2, "0")}`;
}
