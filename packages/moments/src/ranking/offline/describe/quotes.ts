/**
 * The quotable lines of a clip: the sentence (after its first) most worth a headline, the last
 * clause of a turn written without stops, whether a sentence stops mid-clause, and quotation marks
 * inside a quoted line.
 */
import { CONTRAST_WORD, STRONG_CLAIM } from "../../../text/lexicon.ts";
import type { Unit } from "../../../text/units.ts";

export const HEADLINE_CHARACTERS = 60;

/** The line of the clip (after its first sentence) most worth a headline, as `lineOf` reads each sentence, or null. */
export function bestLine(units: Unit[], lineOf: (u: Unit) => string): string | null {
	let best: { text: string; value: number } | null = null;
	units.forEach((u, n) => {
		if (n === 0 || u.backchannel || u.question || u.wordCount < 4 || endsMidClause(u.tagged)) return;
		const text = lineOf(u);
		if (text.length > HEADLINE_CHARACTERS - 2 || text.length < 12) return;
		const value =
			(u.payoff ? 2 : 0) +
			(u.laughter ? 1 : 0) +
			(STRONG_CLAIM.test(u.text) || CONTRAST_WORD.test(u.text) ? 1 : 0) +
			Math.min(1, Math.abs(u.valence) / 3) +
			0.5 * Math.min(1, u.reasoning) +
			(n >= units.length - 3 ? 0.7 : 0) +
			(u.dangling ? -0.5 : 0);
		if (value >= 0.5 && (!best || value > best.value)) best = { text, value };
	});
	return (best as { text: string; value: number } | null)?.text ?? null;
}

/** A subject that opens a clause, contracted or not: "I", "we're", "you'll". */
const CLAUSE_SUBJECT = /^(i|we|he|she|they|i'm|i've|i'll|i'd|we're|we've|he's|she's|they're|you're|you'll|you've)$/;

/**
 * The clause a sentence written without stops ends on, from the last place a new one starts ("…
 * inside it said one thing | you're the best baker I ever had"), at least four words; else "".
 */
export function lastClause(u: Unit): string {
	if (/[,;:.!?]./.test(u.text.trim())) return "";
	// Not a turn cut off mid-clause ("… the woman looks at him and"), nor on a preposition.
	if (endsMidClause(u.tagged) || u.tagged[u.tagged.length - 1]?.pos === "ADP") return "";
	const startsClause = (k: number) =>
		CLAUSE_SUBJECT.test(u.tagged[k]!.norm) &&
		!/^(that|and|but|so|because|if|when|what|which|who)$/.test(u.tagged[k - 1]!.norm);
	for (let k = u.tagged.length - 4; k > 0; k--) {
		if (!startsClause(k)) continue;
		// One clause, not two run together ("I don't know I'm leaving it").
		for (let j = k + 1; j < u.tagged.length; j++) if (startsClause(j)) return "";
		return u.words
			.slice(k)
			.map((w) => w.word)
			.join(" ");
	}
	return "";
}

/**
 * Whether a sentence stops mid-clause, as meeting talk often does: on an article or a conjunction
 * ("… the woman looks at him and", "Mm I was thinking of the"), or on "that" opening a clause about
 * the noun before it ("The little cells that"). A final "that" after a verb or preposition is the
 * thing itself ("I really like that"), and a sentence may end on its preposition ("the one thing
 * I'd never auditioned for").
 */
export function endsMidClause(tagged: Unit["tagged"]): boolean {
	const last = tagged[tagged.length - 1];
	if (!last) return false;
	if (last.norm === "that") return ["NOUN", "PROPN"].includes(tagged[tagged.length - 2]?.pos ?? "");
	return ARTICLE_OR_POSSESSIVE.test(last.norm) || (["CCONJ", "SCONJ"].includes(last.pos) && last.norm !== "either");
}

/** Determiners that cannot end a sentence ("whatever", "all", and "his" or "her" as the object, can). */
const ARTICLE_OR_POSSESSIVE = /^(the|a|an|my|your|our|their|its|every)$/;

/**
 * Quotation marks inside a quoted line: a pair becomes single marks (“He said ‘no’”); one left open
 * where the sentence was cut ("Dear Greta, the weather here is fine) is dropped.
 */
export function innerQuotes(text: string): string {
	const marks = (text.match(/["“”]/g) ?? []).length;
	if (marks % 2 === 1) return text.replace(/["“”]/g, "");
	let seen = 0;
	return text.replace(/["“”]/g, () => (seen++ % 2 === 0 ? "‘" : "’"));
}
