import { languageName } from "@clipforge/domain";

/**
 * The words a viewer reads are in the talk's language: a Hindi clip gets a Hindi title, never an
 * English one (the transcript's language, or when it does not say, the language it is written in).
 */
export function languageRule(
	language: string,
	what = "title, hookTitle, reason, hooks, emotions and description",
): string {
	const name = languageName(language);
	return name === language || language === "und" || language === ""
		? `Write ${what} in the language the transcript is in, in its own script, never translated.`
		: `The transcript is in ${name}: write ${what} in ${name}, in its own script, never translated.`;
}
