/**
 * Words for an offline clip, built from what happens in it: a title naming who or what and the
 * event (titles.ts, events.ts, phrases.ts), a headline for its first seconds that is its most
 * quotable line, never its first words (hooks.ts, quotes.ts), a reason that says what happens
 * (reasons.ts), its hooks, the feelings it carries (emotions.ts) and a post description with
 * hashtags (description.ts).
 */
import type { ScoreBreakdown } from "../../ranked-clip.ts";
import type { ClipWords } from "./clip-words.ts";

export type { ClipWords };
import type { Unit } from "../../../text/units.ts";
import { phrasesOf } from "./phrases.ts";
import { descriptionOf } from "./description.ts";
import { titlesOf } from "./titles.ts";
import { headlineOf, hooksOf } from "./hooks.ts";
import { kindOf, reasonOf } from "./reasons.ts";
import { emotionsOf } from "./emotions.ts";
import { isEnglish } from "../../../text/script.ts";
import { describeInItsLanguage } from "./in-its-language.ts";

export function describeClip(
	units: Unit[],
	breakdown: ScoreBreakdown,
	idf: Map<string, number>,
	prompt: { matched: string[]; text: string | null },
	language: string | null = "en",
): ClipWords {
	// The phrase grammar, the cues and the written reasons are English: other talk gets its own words.
	if (!isEnglish(language, units.map((u) => u.text).join(" "))) return describeInItsLanguage(units);
	const phrases = phrasesOf(units, idf);
	const kind = kindOf(breakdown, units);
	const hooks = hooksOf(units);
	const emotions = emotionsOf(units);
	const titles = titlesOf(units, phrases, idf);
	const title = titles[0]!;
	const hookTitle = headlineOf(units, hooks, title);
	return {
		title,
		titleChoices: titles.slice(1),
		hookTitle,
		viralityReason: reasonOf(
			kind,
			breakdown,
			units,
			phrases.map((p) => p.text),
			prompt,
		),
		hooks,
		emotions,
		description: descriptionOf(units, phrases, hookTitle),
	};
}
