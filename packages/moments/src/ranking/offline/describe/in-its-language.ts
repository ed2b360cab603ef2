/**
 * A clip's words in a language other than English, from the clip's own words only: the title is
 * its first sentence, the hook title its last (where a story lands) or its most exclaimed one,
 * the question hook the one it opens on. No reason, no feelings, no hashtags: the offline ranker's
 * are English, and a Hindi clip with an English reason reads as a machine's. (With an LLM, ClipBasic
 * and ClipPro write all of them in the transcript's language.)
 */
import type { Unit } from "../../../text/units.ts";
import { SENTENCE_END } from "../../../text/script.ts";
import type { ClipWords } from "./clip-words.ts";
import { fit } from "../../../text/fit.ts";
import { HEADLINE_CHARACTERS } from "./quotes.ts";

const TITLE_CHARACTERS = 80;

export function describeInItsLanguage(units: Unit[]): ClipWords {
	const said = units.filter((u) => !u.backchannel && u.text.trim() !== "");
	const lines = said.map((u) => u.text.trim());
	const bare = (line: string) => line.replace(SENTENCE_END, "").replace(/[、，,;:]+$/u, "");
	const titles = [...new Set(lines.map((l) => fit(bare(l), TITLE_CHARACTERS)))];
	const title = titles[0] ?? "";
	const exclaimed = lines.find((l) => /[!！]["'”’)」』]*$/u.test(l) && fit(bare(l), TITLE_CHARACTERS) !== title);
	const last = [...lines].reverse().find((l) => fit(bare(l), TITLE_CHARACTERS) !== title);
	const hookLine = exclaimed ?? last;
	const hookTitle = hookLine ? `“${fit(bare(hookLine), HEADLINE_CHARACTERS - 2)}”` : fit(title, HEADLINE_CHARACTERS);
	const opening = said.filter((u) => u.start - (said[0]?.start ?? 0) < 15);
	const question = opening.find((u) => /[?？]["'”’)」』]*$/u.test(u.text.trim()))?.text.trim() ?? null;
	return {
		title,
		titleChoices: titles.slice(1),
		hookTitle,
		viralityReason: "",
		hooks: { question: question ? fit(question, 140) : null, statement: null },
		emotions: [],
		// The line it lands on, then the line it opens on, each as said (with its own stop), one per line.
		description: [hookLine, fit(lines[0] ?? "", 120)].filter((l) => l && l !== "").join("\n"),
	};
}
