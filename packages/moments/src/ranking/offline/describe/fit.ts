/**
 * Text cut to a length at a word, and capitalised: every title, headline and line of a clip's words
 * goes through it (the LLM's words too).
 */
export function fit(text: string, characters: number): string {
	const clean = text.replace(/\s+/g, " ").trim();
	if (clean.length <= characters) return clean;
	const cut = clean.slice(0, characters - 1);
	return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), characters / 2)).replace(/[,;:\s]+$/, "")}…`;
}

export const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
