/**
 * A clip's hooks: the headline for its first seconds (the hook title: its most quotable line, never
 * its opening words), and the question or statement it opens on.
 */
import type { ClipHooks } from "../../ranked-clip.ts";
import { CONTRAST_WORD, NUMBER_WORD, QUESTION_OPENER, STRONG_CLAIM } from "../../../text/lexicon.ts";
import type { Unit } from "../../../text/units.ts";
import { quoted } from "../../../text/quoted.ts";
import { fit } from "../../../text/fit.ts";
import { HEADLINE_CHARACTERS, bestLine, lastClause, innerQuotes } from "./quotes.ts";

/**
 * The headline for the clip's first seconds: its most quotable line (the payoff, a punchline, a
 * strong claim), never its opening words; else the question it raises; else the last clause of a
 * turn written without stops; else its title.
 */
export function headlineOf(units: Unit[], hooks: ClipHooks, title: string): string {
	// A whole sentence first, then the question the clip opens on; a turn the local engine wrote without
	// stops is too long for a headline, and its last clause stands in only when neither is there (the
	// turn's cues may lie elsewhere in it).
	const asHeadline = (line: string) => `“${innerQuotes(line.replace(/[.!]+$/, ""))}”`;
	const line = bestLine(units, (u) => quoted(u.text));
	if (line) return asHeadline(line);
	if (hooks.question && hooks.question.length <= HEADLINE_CHARACTERS && hooks.question.split(/\s+/).length >= 4)
		return hooks.question;
	const clause = bestLine(units, (u) => quoted(lastClause(u)));
	return clause ? asHeadline(clause) : fit(title, HEADLINE_CHARACTERS);
}

export function hooksOf(units: Unit[]): ClipHooks {
	const opening = units.filter((u) => !u.backchannel && u.start - units[0]!.start < 15);
	const question = opening.find((u) => u.question)?.text ?? null;
	const first = opening[0];
	const cues = first
		? [QUESTION_OPENER, NUMBER_WORD, CONTRAST_WORD, STRONG_CLAIM].filter((re) => re.test(first.text)).length
		: 0;
	const statement =
		first && !first.question && (cues > 0 || first.secondPerson > 0 || first.storyOpener) ? first.text : null;
	// Quoted as a person writes them: the local engine's lower-case "i" and a sentence's first letter upper-case.
	return {
		question: question ? fit(quoted(question), 140) : null,
		statement: statement ? fit(quoted(statement), 140) : null,
	};
}
